module dsim

go 1.26

require (
	github.com/yuin/gopher-lua v1.1.1
	honnef.co/go/js/dom/v2 v2.0.0-20231112215516-51f43a291193
)

replace github.com/yuin/gopher-lua v1.1.1 => ./third_party/gopher-lua
