#include "textflag.h"

// func coefPairs(coef, k, sq, rn []float64, c, inv float64) (done, nclip int)
//
// coefNorms's fast path two rows at a time in SSE2 (each lane the scalar
// loop's operations on its row: the ordered compares, |k|·rn, c/‖z‖,
// min(1, ·) as MINPD gives it for the non-negative, non-NaN quotient,
// then ·inv, then ·k), while both rows of a pair are on the fast path;
// it stops before the first pair that is not (nothing of it stored) and
// returns the rows done and how many of them clipped.
TEXT ·coefPairs(SB), NOSPLIT, $0-128
	MOVQ   coef_base+0(FP), DI
	MOVQ   k_base+24(FP), SI
	MOVQ   k_len+32(FP), R11
	MOVQ   sq_base+48(FP), R8
	MOVQ   rn_base+72(FP), R9
	MOVSD  c+96(FP), X6
	SHUFPD $0, X6, X6
	MOVSD  inv+104(FP), X7
	SHUFPD $0, X7, X7
	MOVQ   $0x07B0000000000000, AX // 2⁻⁹⁰⁰
	MOVQ   AX, X8
	SHUFPD $0, X8, X8
	MOVQ   $0x7830000000000000, AX // 2⁹⁰⁰
	MOVQ   AX, X9
	SHUFPD $0, X9, X9
	MOVQ   $0x7FEFFFFFFFFFFFFF, AX // math.MaxFloat64
	MOVQ   AX, X10
	SHUFPD $0, X10, X10
	MOVQ   $0x7FFFFFFFFFFFFFFF, AX // |·|
	MOVQ   AX, X11
	SHUFPD $0, X11, X11
	MOVQ   $0x3FF0000000000000, AX // 1
	MOVQ   AX, X12
	SHUFPD $0, X12, X12
	ANDQ   $-2, R11 // whole pairs
	XORQ   AX, AX   // the next row
	XORQ   R10, R10 // rows clipped

loop:
	CMPQ AX, R11
	JGE  done

	// ok = 2⁻⁹⁰⁰ < ssq && ssq < 2⁹⁰⁰ && ‖z‖ ≤ MaxFloat64, ‖z‖ = |k|·rn
	MOVUPD (R8)(AX*8), X0 // ssq
	MOVAPD X8, X1
	CMPPD  X0, X1, 1      // 2⁻⁹⁰⁰ < ssq
	CMPPD  X9, X0, 1      // ssq < 2⁹⁰⁰
	ANDPD  X1, X0
	MOVUPD (SI)(AX*8), X2 // k
	MOVAPD X2, X3
	ANDPD  X11, X3        // |k|
	MOVUPD (R9)(AX*8), X4 // rn
	MULPD  X4, X3         // ‖z‖
	MOVAPD X3, X5
	CMPPD  X10, X5, 2     // ‖z‖ ≤ MaxFloat64
	ANDPD  X5, X0
	MOVMSKPD X0, BX
	CMPQ   BX, $3
	JNE    done

	// clipped: c < ‖z‖
	MOVAPD   X6, X1
	CMPPD    X3, X1, 1
	MOVMSKPD X1, BX
	MOVQ     BX, CX
	SHRQ     $1, CX
	ANDQ     $1, BX
	ADDQ     BX, R10
	ADDQ     CX, R10

	// coef = min(1, c/‖z‖)·inv·k
	MOVAPD X6, X1
	DIVPD  X3, X1
	MINPD  X12, X1
	MULPD  X7, X1
	MULPD  X2, X1
	MOVUPD X1, (DI)(AX*8)
	ADDQ   $2, AX
	JMP    loop

done:
	MOVQ AX, done+112(FP)
	MOVQ R10, nclip+120(FP)
	RET

// func coefRootPairs(coef, k, sq []float64, c, inv float64) (done, nclip int)
//
// coefRoots's fast path two rows at a time in SSE2: coefPairs with each
// row's norm √sq taken here (SQRTPD, the scalar loop's math.Sqrt on each
// lane) instead of read from rn; a lane whose sq is off the fast path may
// take a root of anything, which is then not used.
TEXT ·coefRootPairs(SB), NOSPLIT, $0-104
	MOVQ   coef_base+0(FP), DI
	MOVQ   k_base+24(FP), SI
	MOVQ   k_len+32(FP), R11
	MOVQ   sq_base+48(FP), R8
	MOVSD  c+72(FP), X6
	SHUFPD $0, X6, X6
	MOVSD  inv+80(FP), X7
	SHUFPD $0, X7, X7
	MOVQ   $0x07B0000000000000, AX // 2⁻⁹⁰⁰
	MOVQ   AX, X8
	SHUFPD $0, X8, X8
	MOVQ   $0x7830000000000000, AX // 2⁹⁰⁰
	MOVQ   AX, X9
	SHUFPD $0, X9, X9
	MOVQ   $0x7FEFFFFFFFFFFFFF, AX // math.MaxFloat64
	MOVQ   AX, X10
	SHUFPD $0, X10, X10
	MOVQ   $0x7FFFFFFFFFFFFFFF, AX // |·|
	MOVQ   AX, X11
	SHUFPD $0, X11, X11
	MOVQ   $0x3FF0000000000000, AX // 1
	MOVQ   AX, X12
	SHUFPD $0, X12, X12
	ANDQ   $-2, R11 // whole pairs
	XORQ   AX, AX   // the next row
	XORQ   R10, R10 // rows clipped

rloop:
	CMPQ AX, R11
	JGE  rdone

	// ok = 2⁻⁹⁰⁰ < ssq && ssq < 2⁹⁰⁰ && ‖z‖ ≤ MaxFloat64, ‖z‖ = |k|·√ssq
	MOVUPD (R8)(AX*8), X0 // ssq
	SQRTPD X0, X4         // √ssq
	MOVAPD X8, X1
	CMPPD  X0, X1, 1      // 2⁻⁹⁰⁰ < ssq
	CMPPD  X9, X0, 1      // ssq < 2⁹⁰⁰
	ANDPD  X1, X0
	MOVUPD (SI)(AX*8), X2 // k
	MOVAPD X2, X3
	ANDPD  X11, X3        // |k|
	MULPD  X4, X3         // ‖z‖
	MOVAPD X3, X5
	CMPPD  X10, X5, 2     // ‖z‖ ≤ MaxFloat64
	ANDPD  X5, X0
	MOVMSKPD X0, BX
	CMPQ   BX, $3
	JNE    rdone

	// clipped: c < ‖z‖
	MOVAPD   X6, X1
	CMPPD    X3, X1, 1
	MOVMSKPD X1, BX
	MOVQ     BX, CX
	SHRQ     $1, CX
	ANDQ     $1, BX
	ADDQ     BX, R10
	ADDQ     CX, R10

	// coef = min(1, c/‖z‖)·inv·k
	MOVAPD X6, X1
	DIVPD  X3, X1
	MINPD  X12, X1
	MULPD  X7, X1
	MULPD  X2, X1
	MOVUPD X1, (DI)(AX*8)
	ADDQ   $2, AX
	JMP    rloop

rdone:
	MOVQ AX, done+88(FP)
	MOVQ R10, nclip+96(FP)
	RET
