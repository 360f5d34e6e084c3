//go:build amd64 && !purego

#include "textflag.h"

DATA nibbles<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibbles<>(SB), RODATA|NOPTR, $8

// func blockSumsAVX2(lut, signs *byte, cb, blocks int, out *uint16)
//
// For each block of 32 rows, two byte positions at a time: split the 32
// bytes of a position into low and high nibbles, look each up in the
// position's table (VPSHUFB, the table repeated in both lanes), add the
// two positions' entries in bytes (at most 240), and add the bytes into
// two 16-bit accumulators: A gets each 16-bit lane whole (even row +
// 256·odd row, modulo 2¹⁶), B the high byte alone (the odd row). The even
// rows' sums are A − 256·B; both are exact below 2¹⁶. The even and odd
// sums are then interleaved back into row order.
TEXT ·blockSumsAVX2(SB), NOSPLIT, $0-40
	MOVQ lut+0(FP), SI
	MOVQ signs+8(FP), DI
	MOVQ cb+16(FP), CX
	MOVQ blocks+24(FP), R8
	MOVQ out+32(FP), R9
	SHLQ $6, CX // the tables' bytes: the end of the inner loop
	VPBROADCASTQ nibbles<>(SB), Y15

block:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	XORQ  BX, BX

pair:
	VMOVDQU (DI), Y2
	VPSRLW  $4, Y2, Y3
	VPAND   Y15, Y2, Y2
	VPAND   Y15, Y3, Y3
	VMOVDQU (SI)(BX*1), Y4
	VMOVDQU 32(SI)(BX*1), Y5
	VPSHUFB Y2, Y4, Y2
	VPSHUFB Y3, Y5, Y3
	VPADDB  Y2, Y3, Y6
	VMOVDQU 32(DI), Y2
	VPSRLW  $4, Y2, Y3
	VPAND   Y15, Y2, Y2
	VPAND   Y15, Y3, Y3
	VMOVDQU 64(SI)(BX*1), Y4
	VMOVDQU 96(SI)(BX*1), Y5
	VPSHUFB Y2, Y4, Y2
	VPSHUFB Y3, Y5, Y3
	VPADDB  Y2, Y3, Y2
	VPADDB  Y2, Y6, Y6
	VPADDW  Y6, Y0, Y0
	VPSRLW  $8, Y6, Y6
	VPADDW  Y6, Y1, Y1
	ADDQ    $64, DI
	ADDQ    $128, BX
	CMPQ    BX, CX
	JB      pair

	// Y0: the even rows (A − 256·B); Y1: the odd rows.
	VPSLLW     $8, Y1, Y2
	VPSUBW     Y2, Y0, Y0
	VPUNPCKLWD Y1, Y0, Y2 // rows 0–7 | 16–23
	VPUNPCKHWD Y1, Y0, Y3 // rows 8–15 | 24–31
	VPERM2I128 $0x20, Y3, Y2, Y4
	VPERM2I128 $0x31, Y3, Y2, Y5
	VMOVDQU    Y4, (R9)
	VMOVDQU    Y5, 32(R9)
	ADDQ       $64, R9
	DECQ       R8
	JNZ        block

	VZEROUPPER
	RET
