package vec

// The row kernels of each instruction set, each called directly (the
// dispatched DotRows and AxpyRows run one of them).
var (
	dotRowsChecked         = dotRows
	axpyRowsChecked        = axpyRows
	dotRowsAVXChecked      = dotRowsAVX
	axpyRowsAVXChecked     = axpyRowsAVX
	dotSqRowsChecked       = dotSqRows
	dotSqRowsAVXChecked    = dotSqRowsAVX
	clampAddRowsChecked    = clampAddRows
	clampAddRowsAVXChecked = clampAddRowsAVX
)
