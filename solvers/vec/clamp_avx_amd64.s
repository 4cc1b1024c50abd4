#include "textflag.h"

// func clampAddRowsAVX(y []float64, off []int, inv, k, xs []float64, stride, d int, tau float64, flag []uint8, ahead []float64)
//
// clampAddRows (clamp_amd64.s) in AVX (VEX-encoded): the same products,
// clamps, flags and sums on the same entries in the same order, four
// entries per step (256-bit), then at most one pair (128-bit) and a last
// entry (the low lane of a 128-bit register whose high lane is 0, as
// there); no multiply-add is fused, so every entry is the SSE2 kernel's
// bit for bit. The 128-bit steps keep their flags in Y8, apart from Y7's
// (a VEX.128 instruction clears the high half of what it writes).
TEXT ·clampAddRowsAVX(SB), NOSPLIT, $0-192
	MOVQ         y_base+0(FP), DI
	MOVQ         off_base+24(FP), SI
	MOVQ         inv_base+48(FP), R9
	MOVQ         k_base+72(FP), R10
	MOVQ         k_len+80(FP), R11
	MOVQ         xs_base+96(FP), R8
	MOVQ         stride+120(FP), R13
	SHLQ         $3, R13
	MOVQ         d+128(FP), R12
	VBROADCASTSD tau+136(FP), Y4
	VXORPD       Y3, Y3, Y3
	VSUBPD       Y4, Y3, Y3
	MOVQ         flag_base+144(FP), BX
	MOVQ         ahead_base+168(FP), R15
	MOVQ         ahead_len+176(FP), AX
	LEAQ         (R15)(AX*8), AX
	MOVQ         AX, ahead_len+176(FP)

row:
	CMPQ       R15, ahead_len+176(FP)
	JAE        nopf
	PREFETCHT0 (R15)
	PREFETCHT0 64(R15)
	ADDQ       $128, R15

nopf:
	VBROADCASTSD (R10), Y6
	CMPB         (BX), $3
	JE           add
	VXORPD       Y7, Y7, Y7
	VXORPD       Y8, Y8, Y8
	XORQ         CX, CX
	MOVQ         R12, DX
	SUBQ         $4, DX
	JL           test2

quad1:
	VMOVUPD (R8)(CX*8), Y0
	VMULPD  Y6, Y0, Y0
	VSUBPD  Y0, Y0, Y1
	VCMPPD  $3, Y1, Y1, Y1
	VORPD   Y1, Y7, Y7
	ADDQ    $4, CX
	SUBQ    $4, DX
	JGE     quad1

test2:
	ADDQ $4, DX
	CMPQ DX, $2
	JL   test1
	VMOVUPD (R8)(CX*8), X0
	VMULPD  X6, X0, X0
	VSUBPD  X0, X0, X1
	VCMPPD  $3, X1, X1, X1
	VORPD   X1, X8, X8
	ADDQ    $2, CX
	SUBQ    $2, DX

test1:
	TESTQ  DX, DX
	JE     check
	VMOVSD (R8)(CX*8), X0
	VMULPD X6, X0, X0
	VSUBPD X0, X0, X1
	VCMPPD $3, X1, X1, X1
	VORPD  X1, X8, X8

check:
	VMOVMSKPD Y7, AX
	VMOVMSKPD X8, DX
	ORQ       DX, AX
	JE        add
	MOVB      $2, (BX)
	JMP       next

add:
	MOVQ         (SI), AX
	LEAQ         (DI)(AX*8), AX
	VBROADCASTSD (R9), Y5
	VXORPD       Y7, Y7, Y7
	VXORPD       Y8, Y8, Y8
	XORQ         CX, CX
	MOVQ         R12, DX
	SUBQ         $4, DX
	JL           add2

quad2:
	VMOVUPD (R8)(CX*8), Y0
	VMULPD  Y6, Y0, Y0
	VMINPD  Y4, Y0, Y1
	VMAXPD  Y3, Y1, Y1
	VCMPPD  $4, Y1, Y0, Y0
	VORPD   Y0, Y7, Y7
	VMULPD  Y5, Y1, Y1
	VMOVUPD (AX)(CX*8), Y2
	VADDPD  Y1, Y2, Y2
	VMOVUPD Y2, (AX)(CX*8)
	ADDQ    $4, CX
	SUBQ    $4, DX
	JGE     quad2

add2:
	ADDQ $4, DX
	CMPQ DX, $2
	JL   add1
	VMOVUPD (R8)(CX*8), X0
	VMULPD  X6, X0, X0
	VMINPD  X4, X0, X1
	VMAXPD  X3, X1, X1
	VCMPPD  $4, X1, X0, X0
	VORPD   X0, X8, X8
	VMULPD  X5, X1, X1
	VMOVUPD (AX)(CX*8), X2
	VADDPD  X1, X2, X2
	VMOVUPD X2, (AX)(CX*8)
	ADDQ    $2, CX
	SUBQ    $2, DX

add1:
	TESTQ  DX, DX
	JE     flag2
	VMOVSD (R8)(CX*8), X0
	VMULPD X6, X0, X0
	VMINPD X4, X0, X1
	VMAXPD X3, X1, X1
	VCMPPD $4, X1, X0, X0
	VORPD  X0, X8, X8
	VMULSD X5, X1, X1
	VMOVSD (AX)(CX*8), X2
	VADDSD X1, X2, X2
	VMOVSD X2, (AX)(CX*8)

flag2:
	VMOVMSKPD Y7, DX
	VMOVMSKPD X8, CX
	ORQ       CX, DX
	SETNE     (BX)

next:
	ADDQ $8, R10
	ADDQ $8, R9
	ADDQ $8, SI
	ADDQ $1, BX
	ADDQ R13, R8
	DECQ R11
	JNZ  row
	VZEROUPPER
	RET
