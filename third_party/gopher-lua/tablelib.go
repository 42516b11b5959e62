package lua

import (
	"math/bits"
	"sort"
	"strings"
)

// dsim: sortCompareBytes is the work of one comparison of table.sort and
// the moves it leads to, as bytes (see Limits.Work).
const sortCompareBytes = 2 * ValueBytes

func OpenTable(L *LState) int {
	tabmod := L.RegisterModule(TabLibName, tableFuncs)
	L.Push(tabmod)
	return 1
}

var tableFuncs = map[string]LGFunction{
	"getn":   tableGetN,
	"concat": tableConcat,
	"insert": tableInsert,
	"maxn":   tableMaxN,
	"remove": tableRemove,
	"sort":   tableSort,
}

func tableSort(L *LState) int {
	tbl := L.CheckTable(1)
	sorter := lValueArraySorter{L, nil, tbl.array}
	if L.GetTop() != 1 {
		sorter.Fn = L.CheckFunction(2)
	}
	// dsim: about n log n comparisons and as many moves (a comparator
	// in Lua counts its own instructions besides)
	n := len(tbl.array)
	L.work(n * bits.Len(uint(n)) * sortCompareBytes)
	sort.Sort(sorter)
	return 0
}

func tableGetN(L *LState) int {
	L.Push(LNumber(lenWork(L, L.CheckTable(1)))) // dsim
	return 1
}

func tableMaxN(L *LState) int {
	L.Push(LNumber(L.CheckTable(1).MaxN()))
	return 1
}

func tableRemove(L *LState) int {
	tbl := L.CheckTable(1)
	if L.GetTop() == 1 {
		L.Push(tbl.Remove(-1))
	} else {
		pos := L.CheckInt(2)
		L.work((len(tbl.array) - pos) * ValueBytes) // dsim: the elements moved down
		L.Push(tbl.Remove(pos))
	}
	return 1
}

func tableConcat(L *LState) int {
	tbl := L.CheckTable(1)
	sep := LString(L.OptString(2, ""))
	i := L.OptInt(3, 1)
	j := L.OptInt(4, tbl.Len())
	if L.GetTop() == 3 {
		if i > tbl.Len() || i < 1 {
			L.Push(emptyLString)
			return 1
		}
	}
	i = intMax(intMin(i, tbl.Len()), 1)
	j = intMin(intMin(j, tbl.Len()), tbl.Len())
	if i > j {
		L.Push(emptyLString)
		return 1
	}
	// dsim: the size is known and checked before anything is built, and
	// the parts are not pushed on the stack (100,000 of them overflowed
	// it); the result is always a string, as in Lua 5.1 (upstream
	// returned a lone number element as a number).
	size := (j - i) * len(sep)
	L.work((j - i + 1) * ValueBytes) // dsim: the walk, before what it builds
	for k := i; k <= j; k++ {
		v := tbl.RawGetInt(k)
		if !LVCanConvToString(v) {
			L.RaiseError("invalid value (%s) at index %d in table for concat", v.Type().String(), k)
		}
		size += len(LVAsString(v))
		L.checkString("table.concat", size)
	}
	L.allocString("table.concat", size)
	var b strings.Builder
	b.Grow(size)
	for k := i; k <= j; k++ {
		if k > i {
			b.WriteString(string(sep))
		}
		b.WriteString(LVAsString(tbl.RawGetInt(k)))
	}
	L.Push(LString(b.String()))
	return 1
}

func tableInsert(L *LState) int {
	tbl := L.CheckTable(1)
	nargs := L.GetTop()
	if nargs == 1 {
		L.RaiseError("wrong number of arguments")
	}

	if L.GetTop() == 2 {
		tbl.Append(L.Get(2))
		return 0
	}
	pos := L.CheckInt(2)
	L.work((len(tbl.array) - pos + 1) * ValueBytes) // dsim: the elements moved up
	tbl.Insert(pos, L.CheckAny(3))
	return 0
}

//
