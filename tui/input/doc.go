// Package input guards the explorer's terminal input: [Guard] wraps the
// terminal and rewrites the byte stream before Bubble Tea's decoder
// (charmbracelet/x/ansi and ultraviolet) reads it, so that no input can
// crash the decoder or make the explorer deaf.
//
// Two rules, each keeping what a terminal legitimately sends:
//
//   - A control sequence (CSI, ESC [ or 0x9B; DCS, ESC P or 0x90) keeps at
//     most [MaxParams] parameters (a DCS [MaxDCSParams]): the parameter
//     bytes after the last one kept are dropped and its final byte is
//     passed on. The ansi decoder collects parameters into a fixed array of
//     32 and indexes past it on a 33rd (charmbracelet/x/ansi v0.11.9,
//     parser_decode.go: "index out of range [32] with length 32", in the
//     input goroutine, where no recover reaches); ultraviolet's DCS parser
//     stops at 16 and hands the rest of the sequence on as typed keys. No
//     key, mouse report or terminal reply has more than a handful.
//   - A bracketed paste (ESC [ 200 ~ … ESC [ 201 ~) that has not ended
//     within [PasteTimeout] of its last byte (time the reader spends
//     waiting for the stream: a reader slower than its sender sees no
//     pause in a paste sent in one go), or that passes [MaxPaste]
//     bytes, is ended by the guard (it inserts ESC [ 201 ~ and drops the
//     terminal's own end marker if it comes later), so that an unterminated
//     paste start does not swallow every later key, q and Ctrl-C included.
//
// The guard keeps the terminal's file descriptor ([Guard.Fd]), so Bubble
// Tea still puts it in raw mode and restores it, and cancels its reads.
// A stream that is not a terminal file (an SSH session's, in dpso serve)
// is read through a [Reader], the same filter without a descriptor.
package input
