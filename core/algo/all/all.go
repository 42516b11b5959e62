// Package all registers every algorithm: import it for its side effect
// wherever the whole registry is needed (the scenario binding, the CLI).
package all

import (
	_ "dsim/core/algo/agreement/om"
	_ "dsim/core/algo/agreement/sm"
	_ "dsim/core/algo/agreement/twogenerals"
	_ "dsim/core/algo/clock/berkeley"
	_ "dsim/core/algo/clock/cristian"
	_ "dsim/core/algo/clock/lamport"
	_ "dsim/core/algo/clock/ntp"
	_ "dsim/core/algo/clock/vector"
	_ "dsim/core/algo/election/activelist"
	_ "dsim/core/algo/election/bully"
	_ "dsim/core/algo/election/changroberts"
	_ "dsim/core/algo/election/lelann"
	_ "dsim/core/algo/election/ring"
	_ "dsim/core/algo/mutex/central"
	_ "dsim/core/algo/mutex/lamport"
	_ "dsim/core/algo/mutex/maekawa"
	_ "dsim/core/algo/mutex/raymond"
	_ "dsim/core/algo/mutex/ricartagrawala"
	_ "dsim/core/algo/mutex/ricartagrawala2"
	_ "dsim/core/algo/mutex/singhal"
	_ "dsim/core/algo/mutex/singhaltoken"
	_ "dsim/core/algo/mutex/suzukikasami"
	_ "dsim/core/algo/mutex/tokenring"
	_ "dsim/core/algo/order/causal"
	_ "dsim/core/algo/order/fifo"
	_ "dsim/core/algo/order/total"
	_ "dsim/core/algo/snapshot/chandylamport"
	_ "dsim/core/algo/snapshot/laiyang"
)
