package plot

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// notesPlan is where a figure's notes go: side under the legend in its
// column, bottom across the foot of the figure (under the axes and the
// column), with the legend's short texts or its full ones.
type notesPlan struct {
	side, bottom []string
	short        bool
	bottomH      vg.Length // the height the bottom notes take
}

// maxSplit is the most notes whose every split between the column and
// the bottom planNotes tries (2^maxSplit splits); with more, the column
// takes a first run of them.
const maxSplit = 10

// planNotes splits the notes between the legend's column (col, from the
// foot of the figure to the top of the axes) and the bottom so that the
// bottom takes the least height — the axes get the rest: every note
// that fits under the legend's entries stands there, the others across
// the bottom, each group in the notes' order. The legend's full texts
// are kept where some split gives them as much height as the short ones
// get. ok is false when no split leaves the legend room in the column
// above the bottom notes (the caller then puts every note at the bottom).
func (f *Figure) planNotes(dc draw.Canvas, col, bottomBox vg.Rectangle, withNames func(bool) []string) (best notesPlan, ok bool) {
	lw := col.Max.X - col.Min.X
	bw := bottomBox.Max.X - bottomBox.Min.X
	sty := textStyle(notesSize)
	limit := (dc.Rectangle.Max.Y - dc.Rectangle.Min.Y) * maxNotesFrac
	for _, short := range []bool{false, true} {
		_, legH := f.legendLines(lw, short)
		notes := withNames(short)
		n := len(notes)
		// Each note's lines across the bottom and in the column, once.
		wb, ws := make([][]string, n), make([][]string, n)
		for i, t := range notes {
			wb[i], ws[i] = wrapWidth("· "+t, sty, bw), wrapWidth("· "+t, sty, lw)
		}
		var masks []uint
		if n <= maxSplit {
			for m := uint(0); m < 1<<n; m++ {
				masks = append(masks, m)
			}
		} else {
			for j := 0; j <= n; j++ { // the column takes notes[:j]
				masks = append(masks, 1<<j-1)
			}
		}
		for _, m := range masks {
			var side, bottom []string
			var sideW, bottomW [][]string
			for i, t := range notes {
				if m&(1<<i) != 0 {
					side, sideW = append(side, t), append(sideW, ws[i])
				} else {
					bottom, bottomW = append(bottom, t), append(bottomW, wb[i])
				}
			}
			foot := col.Min.Y
			if len(bottom) > 0 {
				_, h, drawn := packNotes(bottom, func(i int) []string { return bottomW[i] }, sty, bw, limit)
				if drawn < len(bottom) {
					continue // the bottom would count some in a "… more" line
				}
				foot += h + vg.Points(6)
			}
			room := col.Max.Y - foot
			var sideH vg.Length
			if len(side) > 0 {
				_, h, drawn := packNotes(side, func(i int) []string { return sideW[i] }, sty, lw, room)
				if drawn < len(side) {
					continue
				}
				sideH = h + vg.Points(6)
			}
			if legH+sideH > room {
				continue
			}
			h := foot - col.Min.Y
			if ok && (h > best.bottomH || h == best.bottomH && (short != best.short || len(side) >= len(best.side))) {
				continue
			}
			best, ok = notesPlan{side: side, bottom: bottom, short: short, bottomH: h}, true
		}
	}
	return best, ok
}

// bits is the number of set bits of m.
func bits(m uint) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}
