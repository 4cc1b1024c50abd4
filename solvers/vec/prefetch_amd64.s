#include "textflag.h"

// func prefetchRows(xs []float64, idx []int, stride int)
//
// For each row r = idx[j]: PREFETCHT0 at its first byte and every 64
// bytes after it within the row, then at its last byte (a row that
// straddles one more cache line than its length fills).
TEXT ·prefetchRows(SB), NOSPLIT, $0-56
	MOVQ xs_base+0(FP), R8
	MOVQ idx_base+24(FP), R9
	MOVQ idx_len+32(FP), CX
	MOVQ stride+48(FP), DX
	SHLQ $3, DX
	TESTQ CX, CX
	JZ   done

next:
	MOVQ  (R9), AX
	IMULQ DX, AX
	LEAQ  (R8)(AX*1), SI
	LEAQ  -1(SI)(DX*1), DI

line:
	PREFETCHT0 (SI)
	ADDQ       $64, SI
	CMPQ       SI, DI
	JLE        line
	PREFETCHT0 (DI)
	ADDQ       $8, R9
	DECQ       CX
	JNZ        next

done:
	RET
