//go:build !amd64

package vec

// Off amd64 there is one implementation, the Go loops.
var (
	dotRowsChecked         = dotRows
	axpyRowsChecked        = axpyRows
	dotRowsAVXChecked      = dotRows
	axpyRowsAVXChecked     = axpyRows
	dotSqRowsChecked       = dotSqRows
	dotSqRowsAVXChecked    = dotSqRows
	clampAddRowsChecked    = clampAddRows
	clampAddRowsAVXChecked = clampAddRows
)

const hasAVX = false
