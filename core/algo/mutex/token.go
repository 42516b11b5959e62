package mutex

import (
	"slices"

	"dsim/core/algo"
	"dsim/core/proc"
)

// HolderParam is the configuration key by which the token algorithms name
// the process that holds the token at boot.
var HolderParam = algo.Param{Name: "holder", Type: algo.Int, Default: -1, Min: -1, Max: float64(proc.MaxID),
	Doc: "the process holding the token at boot (-1: the first process in ring order, the root of a tree)", Process: true}

// StartsWithToken reports whether the process behind ctx holds the token at
// boot, holder being the HolderParam value. A recovered process never does:
// the token it may have held was lost with it. When holder names no
// process, the first process takes the token and says so in its log. (A
// process whose id is -1 can hold the token at boot only by being first.)
func StartsWithToken(ctx proc.Context, holder proc.NodeID) bool {
	switch {
	case ctx.Recovered():
		return false
	case holder == -1:
		return ctx.Index() == 0
	case holder == ctx.Self():
		return true
	case ctx.Index() != 0:
		return false
	case !slices.Contains(ctx.Peers(), holder):
		ctx.Log("config holder=%d names no process: the first process, %d, holds the token", holder, ctx.Self())
		return true
	}
	return false
}
