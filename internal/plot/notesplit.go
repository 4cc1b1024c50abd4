package plot

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// notesPlan is where a figure's notes go: side under the legend in its
// column, bottom under the axes — across the whole width (under the
// column too) or, narrow, under the axes alone, the column then reaching
// the figure's foot — with the legend's short texts or its full ones.
type notesPlan struct {
	side, bottom []string
	short        bool
	narrow       bool
	bottomH      vg.Length // the height the bottom notes take
}

// maxSplit is the most notes whose every split between the column and
// the bottom planNotes tries (2^maxSplit splits); with more, the column
// takes a first run of them.
const maxSplit = 10

// planNotes splits the notes between the legend's column (col, from the
// foot of the figure to the top of the axes) and the bottom (bottomBox:
// the whole width; or narrow, its part left of the column) so that the
// bottom takes the least height — the axes get the rest — with every
// legend entry and every note drawn: the notes that fit under the
// legend's entries stand there, the others under the axes, each group
// in the notes' order. On a tie the legend's full texts, the whole
// width and fewer notes in the column are kept. ok is false when no
// split draws every entry and note (the caller then puts every note
// across the bottom and counts what does not fit).
func (f *Figure) planNotes(dc draw.Canvas, col, bottomBox vg.Rectangle, withNames func(bool) []string) (best notesPlan, ok bool) {
	lw := col.Max.X - col.Min.X
	sty := textStyle(notesSize)
	limit := (dc.Rectangle.Max.Y - dc.Rectangle.Min.Y) * maxNotesFrac
	better := func(p notesPlan) bool {
		switch {
		case !ok || p.bottomH < best.bottomH:
			return true
		case p.bottomH > best.bottomH || p.short != best.short || p.narrow != best.narrow:
			return false
		}
		return len(p.side) < len(best.side)
	}
	for _, short := range []bool{false, true} {
		_, legH := f.legendLines(lw, short)
		notes := withNames(short)
		n := len(notes)
		for _, narrow := range []bool{false, true} {
			bw := bottomBox.Max.X - bottomBox.Min.X
			if narrow {
				bw = col.Min.X - vg.Points(10) - bottomBox.Min.X
			}
			// Each note's lines under the axes and in the column, once.
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
				if narrow && m == 1<<n-1 {
					continue // nothing under the axes: the whole width's plan
				}
				var side, bottom []string
				var sideW, bottomW [][]string
				for i, t := range notes {
					if m&(1<<i) != 0 {
						side, sideW = append(side, t), append(sideW, ws[i])
					} else {
						bottom, bottomW = append(bottom, t), append(bottomW, wb[i])
					}
				}
				var h vg.Length // the bottom notes' height, with the gap over them
				if len(bottom) > 0 {
					_, bh, drawn := packNotes(bottom, func(i int) []string { return bottomW[i] }, sty, bw, limit)
					if drawn < len(bottom) {
						continue // the bottom would count some in a "… more" line
					}
					h = bh + vg.Points(6)
				}
				foot := col.Min.Y + h
				if narrow {
					foot = col.Min.Y
				}
				room := col.Max.Y - foot
				var sideH vg.Length
				if len(side) > 0 {
					_, sh, drawn := packNotes(side, func(i int) []string { return sideW[i] }, sty, lw, room)
					if drawn < len(side) {
						continue
					}
					sideH = sh + vg.Points(6)
				}
				if legH+sideH > room {
					continue
				}
				if p := (notesPlan{side: side, bottom: bottom, short: short, narrow: narrow, bottomH: h}); better(p) {
					best, ok = p, true
				}
			}
		}
	}
	return best, ok
}
