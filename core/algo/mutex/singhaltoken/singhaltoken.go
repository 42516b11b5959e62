// Package singhaltoken is Singhal's heuristically-aided token-based mutual
// exclusion algorithm (M. Singhal, "A heuristically-aided algorithm for
// mutual exclusion in distributed systems", IEEE Transactions on Computers
// 38(5), 1989), one of the token-based algorithms the lecture notes
// "Synchronization, Coordination and Agreement" list ("Singhal Algorithm").
// The rules are the paper's as Singhal and Shivaratri's "Advanced Concepts
// in Operating Systems" give them (section "Singhal's Heuristic
// Algorithm"): every site keeps what it knows of the others' states, SV,
// and of their latest request numbers, SN; the token carries its own TSV
// and TSN; a site sends its REQUEST only to the sites it believes are
// requesting, which is where the heuristic saves messages.
//
// Not to be confused with mutex.singhal, Singhal's permission-based
// dynamic information-structure algorithm (request and inform sets, REPLY
// messages, no token).
//
// # Failures
//
// None are tolerated: a crashed site's pending REQUEST still leads to it,
// a crash of the holder loses the token, which nothing regenerates, and a
// recovered site restarts from the initial staircase, which no longer
// matches what the others know. The token passes over a requester the
// failure detector suspects. No FIFO links are needed: a REQUEST whose
// number is not above SN is outdated and discarded, and the release merges
// site and token information by request number.
package singhaltoken

import (
	"maps"

	"dsim/core/algo"
	"dsim/core/algo/mutex"
	"dsim/core/proc"
)

// The site states of SV and TSV.
const (
	R = "R" // requesting the critical section
	E = "E" // executing the critical section
	H = "H" // holding the idle token
	N = "N" // none of these
)

// Request is REQUEST(i, sn): site i's sn-th request.
type Request struct {
	ID proc.NodeID `json:"id"`
	SN int         `json:"sn"`
}

func (Request) Kind() string { return "REQUEST" }

// Token carries TSV, the token's view of the sites' states, and TSN, the
// numbers of their requests it knows. An absent entry is N and 0.
type Token struct {
	TSV map[proc.NodeID]string `json:"tsv"`
	TSN map[proc.NodeID]int    `json:"tsn"`
}

func (Token) Kind() string { return "TOKEN" }

// State keys besides mutex's.
const (
	KeySN    = "sn"         // SN_i[i]
	KeyState = "site_state" // SV_i[i]
)

func init() {
	algo.Register(algo.Spec{
		Name:    "mutex.singhaltoken",
		Summary: "Singhal's heuristically-aided token algorithm: SV/SN arrays start as a staircase, REQUEST goes only to the sites believed requesting, the TOKEN carries TSV/TSN; 0 to n messages per entry",
		Description: `Text: Singhal 1989 ("A heuristically-aided algorithm for mutual exclusion in distributed systems", IEEE Trans. Computers 38(5)), one of the token-based algorithms the lecture notes "Synchronization, Coordination and Agreement" list ("Singhal Algorithm", without its rules); the rules as Singhal and Shivaratri give them ("Advanced Concepts in Operating Systems", "Singhal's Heuristic Algorithm"). Not mutex.singhal, his permission-based dynamic information-structure algorithm.
Rules: every site i keeps SV_i[j], the state it believes site j is in (R requesting, E executing, H holding the idle token, N none), and SN_i[j], the highest request number it knows of j; the token carries TSV[j] and TSN[j]. Initially, with S_1..S_n the sites in ring order from the first holder, SV_i[j] = R for j < i and N for j >= i (the staircase: of any two sites the later one asks the earlier), SN_i[j] = 0, SV_1[1] = H, and TSV[j] = N, TSN[j] = 0. Requesting: a site with the idle token sets SV_i[i] := E and enters at once; otherwise it sets SV_i[i] := R, increments SN_i[i] and sends REQUEST(i, SN_i[i]) to every j with SV_i[j] = R. Receiving REQUEST(i, sn) at j: if sn <= SN_j[i] it is outdated and discarded; else SN_j[i] := sn and, by SV_j[j]: N or E: SV_j[i] := R; R: if SV_j[i] != R, SV_j[i] := R and j sends REQUEST(j, SN_j[j]) to i; H: SV_j[i] := R, TSV[i] := R, TSN[i] := sn, SV_j[j] := N and the TOKEN goes to i. A site receiving the TOKEN while requesting sets SV_i[i] := E and enters. Releasing: SV_i[i] := N, TSV[i] := N; for every j, if SN_i[j] > TSN[j] the token learns from the site (TSV[j] := SV_i[j], TSN[j] := SN_i[j]), else the site learns from the token (SV_i[j] := TSV[j], SN_i[j] := TSN[j]); if SV_i[j] = N for every j the site keeps the token (SV_i[i] := H), else the TOKEN goes to a site j with SV_i[j] = R. Per entry: 0 messages at the idle holder (a site that finds nobody marked R keeps the token, so its next requests are free); otherwise one TOKEN plus a REQUEST to every site believed requesting (the staircase's i-1 for a site's first request, so one request from each site costs n(n+1)/2-1 messages in all, against n(n-1) for Suzuki-Kasami; up to n-1 once a site has heard from every other since it last held the token) and the REQUESTs requesting sites send back.
Where the text is silent (the paper leaves the choice of the next holder to its arbitration rules): the TOKEN goes to the first site with SV_i[j] = R in ring order from the successor, passing over a site the failure detector suspects; the first holder is config holder (default the first process in ring order), and the staircase starts from it; a TOKEN reaching a site that does not request (only a hand-made one can) is released at once as above; a second TOKEN reaching a site that holds one (only a duplicated or hand-made one can) is dropped; a REQUEST naming the receiver or no process is ignored. sn shows SN_i[i] and site_state SV_i[i]; the token's maps list only the entries other than N and 0.
Failures: reliable links, any delivery order (no FIFO needed). Crashes are not tolerated: a crash of the holder loses the token, which nothing regenerates, and a recovered site restarts from the staircase, which no longer matches the others' arrays.`,
		Topology: "complete",
		Assumptions: algo.Assumptions{
			Crashes: algo.NoCrashes,
		},
		Config:   []algo.Param{mutex.HolderParam},
		Commands: mutex.Commands,
		State: append(append([]algo.StateKey{}, mutex.StateKeys...), mutex.TokenKey,
			algo.StateKey{Key: KeySN, Doc: "SN_i[i]: the number of this site's latest request (set when it requests)"},
			algo.StateKey{Key: KeyState, Doc: `SV_i[i]: "R" (requesting), "E" (executing), "H" (holding the idle token) or "N" (none)`}),
		Messages:   []proc.Message{Request{}, Token{}},
		Properties: mutex.Properties,
		New: func(v algo.Values) (proc.Factory, error) {
			w := &shared{holder: v.ID("holder")}
			return func(proc.NodeID) proc.Node { return &node{w: w} }, nil
		},
		Memory: algo.Memory{Boot: algo.Bytes(448 + algo.MapEntryBytes), Load: algo.Bytes(1024), BootEvents: 3},
	})
}

// shared is what the sites of one world share: the staircase's order.
type shared struct {
	holder proc.NodeID
	rank   map[proc.NodeID]int // position in ring order from the first holder: S_1 is rank 0
}

// ranks fills w.rank the first time a site starts.
func (w *shared) ranks(ctx proc.Context) {
	if w.rank != nil {
		return
	}
	ids := append([]proc.NodeID{ctx.Self()}, ctx.Peers()...) // ring order from this site
	first := 0
	for k, id := range ids {
		if id == w.holder {
			first = k
		}
	}
	if w.holder == -1 || first == 0 && ids[0] != w.holder {
		// The default, or a holder that is no process: the first process
		// in ring order, as mutex.StartsWithToken decides.
		first = (len(ids) - ctx.Index()) % len(ids)
	}
	w.rank = make(map[proc.NodeID]int, len(ids))
	for k, id := range ids {
		w.rank[id] = (k - first + len(ids)) % len(ids)
	}
}

type node struct {
	mutex.CS
	w *shared
	// sv and sn hold SV_i and SN_i where they differ from the initial
	// staircase and 0, so that a booted site holds no array of n entries.
	sv    map[proc.NodeID]string
	sn    map[proc.NodeID]int
	token *Token // nil unless this site holds the token
}

func (p *node) Start(ctx proc.Context) {
	p.CS.Start(ctx)
	p.w.ranks(ctx)
	p.sv, p.sn = map[proc.NodeID]string{}, map[proc.NodeID]int{}
	if mutex.StartsWithToken(ctx, p.w.holder) {
		p.token = &Token{TSV: map[proc.NodeID]string{}, TSN: map[proc.NodeID]int{}}
		ctx.Set(mutex.KeyToken, true)
		p.setSV(ctx, ctx.Self(), H)
		return
	}
	ctx.Set(mutex.KeyToken, false)
	ctx.Set(KeyState, p.getSV(ctx, ctx.Self()))
}

// staircase is the initial SV_i[j]: R for the sites before i in ring order
// from the first holder, N for i and the sites after it.
func (p *node) staircase(ctx proc.Context, j proc.NodeID) string {
	if p.w.rank[j] < p.w.rank[ctx.Self()] {
		return R
	}
	return N
}

func (p *node) getSV(ctx proc.Context, j proc.NodeID) string {
	if s, ok := p.sv[j]; ok {
		return s
	}
	return p.staircase(ctx, j)
}

func (p *node) setSV(ctx proc.Context, j proc.NodeID, s string) {
	old := p.getSV(ctx, j)
	if s == p.staircase(ctx, j) {
		delete(p.sv, j)
	} else {
		p.sv[j] = s
	}
	if j == ctx.Self() && s != old {
		ctx.Set(KeyState, s)
	}
}

func (p *node) setSN(j proc.NodeID, n int) {
	if n == 0 {
		delete(p.sn, j)
	} else {
		p.sn[j] = n
	}
}

func setTSV(t *Token, j proc.NodeID, s string) {
	if s == N {
		delete(t.TSV, j)
	} else {
		t.TSV[j] = s
	}
}

func tsv(t *Token, j proc.NodeID) string {
	if s, ok := t.TSV[j]; ok {
		return s
	}
	return N
}

func setTSN(t *Token, j proc.NodeID, n int) {
	if n == 0 {
		delete(t.TSN, j)
	} else {
		t.TSN[j] = n
	}
}

// Want is the request rule.
func (p *node) Want(ctx proc.Context) {
	self := ctx.Self()
	if p.token != nil {
		ctx.Log("holding the idle token (H): E, entering without messages")
		p.setSV(ctx, self, E)
		p.Enter(ctx)
		return
	}
	p.setSV(ctx, self, R)
	sn := p.sn[self] + 1
	p.setSN(self, sn)
	ctx.Set(KeySN, sn)
	var to []proc.NodeID
	for _, j := range ctx.Peers() {
		if p.getSV(ctx, j) == R {
			to = append(to, j)
		}
	}
	ctx.Log("R, REQUEST(%d, %d) to the sites SV marks R: %v", self, sn, to)
	for _, j := range to {
		ctx.Send(j, Request{ID: self, SN: sn})
	}
}

func (p *node) Receive(ctx proc.Context, from proc.NodeID, m proc.Message) {
	switch msg := m.(type) {
	case Request:
		p.request(ctx, msg)
	case Token:
		p.receiveToken(ctx, msg)
	}
}

// request is the rule for REQUEST(i, sn) at this site j.
func (p *node) request(ctx proc.Context, msg Request) {
	self, i := ctx.Self(), msg.ID
	if _, ok := p.w.rank[i]; !ok || i == self {
		ctx.Log("REQUEST naming %d ignored: no other process", i)
		return
	}
	if msg.SN <= p.sn[i] {
		ctx.Log("REQUEST(%d, %d) outdated (SN[%d] = %d): discarded", i, msg.SN, i, p.sn[i])
		return
	}
	p.setSN(i, msg.SN)
	switch p.getSV(ctx, self) {
	case N, E:
		p.setSV(ctx, i, R)
	case R:
		if p.getSV(ctx, i) != R {
			p.setSV(ctx, i, R)
			ctx.Log("R and SV[%d] was not R: REQUEST(%d, %d) to %d", i, self, p.sn[self], i)
			ctx.Send(i, Request{ID: self, SN: p.sn[self]})
		}
	case H:
		p.setSV(ctx, i, R)
		setTSV(p.token, i, R)
		setTSN(p.token, i, msg.SN)
		t := p.token
		p.token = nil
		ctx.Set(mutex.KeyToken, false)
		p.setSV(ctx, self, N)
		ctx.Log("H: TOKEN to %d", i)
		ctx.Send(i, *t)
	}
}

func (p *node) receiveToken(ctx proc.Context, msg Token) {
	if p.token != nil {
		ctx.Log("TOKEN while holding one: a second token, dropped")
		return
	}
	// The received maps are the sender's recorded message: work on copies.
	p.token = &Token{TSV: maps.Clone(msg.TSV), TSN: maps.Clone(msg.TSN)}
	if p.token.TSV == nil {
		p.token.TSV = map[proc.NodeID]string{}
	}
	if p.token.TSN == nil {
		p.token.TSN = map[proc.NodeID]int{}
	}
	for j, s := range p.token.TSV { // entries the rules never write: N, or not a state
		if s == N || (s != R && s != E && s != H) {
			delete(p.token.TSV, j)
		}
	}
	ctx.Set(mutex.KeyToken, true)
	if p.Wanted() {
		p.setSV(ctx, ctx.Self(), E)
		p.Enter(ctx)
		return
	}
	ctx.Log("TOKEN while not requesting: released at once")
	p.release(ctx)
}

// Exit is the release rule.
func (p *node) Exit(ctx proc.Context) { p.release(ctx) }

func (p *node) release(ctx proc.Context) {
	self, t := ctx.Self(), p.token
	p.setSV(ctx, self, N)
	setTSV(t, self, N)
	all := append([]proc.NodeID{self}, ctx.Peers()...)
	for _, j := range all {
		if p.sn[j] > t.TSN[j] {
			setTSV(t, j, p.getSV(ctx, j))
			setTSN(t, j, p.sn[j])
		} else {
			p.setSV(ctx, j, tsv(t, j))
			p.setSN(j, t.TSN[j])
		}
	}
	for _, j := range ctx.Peers() {
		if p.getSV(ctx, j) != R {
			continue
		}
		if ctx.Suspected(j) {
			ctx.Log("SV[%d] = R but %d is suspected: passed over", j, j)
			continue
		}
		p.token = nil
		ctx.Set(mutex.KeyToken, false)
		ctx.Log("SV[%d] = R: TOKEN to %d", j, j)
		ctx.Send(j, *t)
		return
	}
	p.setSV(ctx, self, H)
	ctx.Log("no site marked R: keeping the token (H)")
}

func (p *node) Timer(ctx proc.Context, tag string) { p.CS.Timer(ctx, p, tag) }

func (p *node) Command(ctx proc.Context, name string, args proc.Args) error {
	return p.CS.Command(ctx, p, name, args)
}
