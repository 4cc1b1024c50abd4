#include "textflag.h"

// func clampAddRows(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64)
//
// For each row i: z = k[i]·a_i, two entries per step (the last alone,
// loaded into the low lane with the high lane 0, so that 0·k[i] stays
// finite whenever k[i] is); unless flag[i] = 3 on entry (the caller knows
// z is finite), a first pass tests z − z for NaN (z not finite); a second
// forms z again, clamps it with MINPD/MAXPD (exact on finite entries, and
// (τ, −τ) = (+Inf, −Inf) clamps nothing), flags a clamped entry by
// comparing it with z, and adds inv[i]·clamp(z) to the destination row
// y[off[i]:]. Before each row it prefetches the next two cache lines of
// ahead (R15 walks them; the end is kept in ahead_len's slot).
TEXT ·clampAddRows(SB), NOSPLIT, $0-192
	MOVQ   y_base+0(FP), DI
	MOVQ   off_base+24(FP), SI
	MOVQ   inv_base+48(FP), R9
	MOVQ   k_base+72(FP), R10
	MOVQ   k_len+80(FP), R11
	MOVQ   xs_base+96(FP), R8
	MOVQ   stride+120(FP), R13
	SHLQ   $3, R13
	MOVQ   d+128(FP), R12
	MOVSD  tau+136(FP), X4
	SHUFPD $0, X4, X4
	XORPD  X3, X3
	SUBPD  X4, X3
	MOVQ   flag_base+144(FP), BX
	MOVQ   ahead_base+168(FP), R15
	MOVQ   ahead_len+176(FP), AX
	LEAQ   (R15)(AX*8), AX
	MOVQ   AX, ahead_len+176(FP)

row:
	CMPQ       R15, ahead_len+176(FP)
	JAE        nopf
	PREFETCHT0 (R15)
	PREFETCHT0 64(R15)
	ADDQ       $128, R15

nopf:
	MOVSD  (R10), X6
	SHUFPD $0, X6, X6
	CMPB   (BX), $3
	JE     add
	XORPD  X7, X7
	XORQ   CX, CX
	MOVQ   R12, DX
	SUBQ   $2, DX
	JL     test1

pair1:
	MOVUPD (R8)(CX*8), X0
	MULPD  X6, X0
	MOVAPD X0, X1
	SUBPD  X0, X1
	CMPPD  X1, X1, $3
	ORPD   X1, X7
	ADDQ   $2, CX
	SUBQ   $2, DX
	JGE    pair1

test1:
	ADDQ   $2, DX
	JE     check
	MOVSD  (R8)(CX*8), X0
	MULPD  X6, X0
	MOVAPD X0, X1
	SUBPD  X0, X1
	CMPPD  X1, X1, $3
	ORPD   X1, X7

check:
	MOVMSKPD X7, AX
	TESTQ    AX, AX
	JE       add
	MOVB     $2, (BX)
	JMP      next

add:
	MOVQ   (SI), AX
	LEAQ   (DI)(AX*8), AX
	MOVSD  (R9), X5
	SHUFPD $0, X5, X5
	XORPD  X7, X7
	XORQ   CX, CX
	MOVQ   R12, DX
	SUBQ   $2, DX
	JL     tail2

pair2:
	MOVUPD (R8)(CX*8), X0
	MULPD  X6, X0
	MOVAPD X0, X1
	MINPD  X4, X1
	MAXPD  X3, X1
	CMPPD  X1, X0, $4
	ORPD   X0, X7
	MULPD  X5, X1
	MOVUPD (AX)(CX*8), X2
	ADDPD  X1, X2
	MOVUPD X2, (AX)(CX*8)
	ADDQ   $2, CX
	SUBQ   $2, DX
	JGE    pair2

tail2:
	ADDQ   $2, DX
	JE     flag2
	MOVSD  (R8)(CX*8), X0
	MULPD  X6, X0
	MOVAPD X0, X1
	MINPD  X4, X1
	MAXPD  X3, X1
	CMPPD  X1, X0, $4
	ORPD   X0, X7
	MULSD  X5, X1
	MOVSD  (AX)(CX*8), X2
	ADDSD  X1, X2
	MOVSD  X2, (AX)(CX*8)

flag2:
	MOVMSKPD X7, DX
	TESTQ    DX, DX
	SETNE    (BX)

next:
	ADDQ $8, R10
	ADDQ $8, R9
	ADDQ $8, SI
	ADDQ $1, BX
	ADDQ R13, R8
	DECQ R11
	JNZ  row
	RET
