package plotcheck

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"dpso/internal/plot"
)

// Facts are what a figure file shows of itself.
type Facts struct {
	// Width and Height are the image's size in pixels: a PNG's bounds,
	// an SVG root's width and height.
	Width, Height int
	// ViewBox is an SVG's viewBox (min x, min y, width, height); zero for
	// a PNG.
	ViewBox [4]float64
	// Axes is a PNG's data area: from the y axis's line to the right end
	// of the x axis's line, from the top to the bottom of the y axis's
	// line (empty for an SVG).
	Axes image.Rectangle
	// DataTop and DataBottom are the first and last rows of a PNG, inside
	// Axes, holding a pixel of exactly a measured colour (−1 when none,
	// and for an SVG).
	DataTop, DataBottom int
}

// Is16x9 reports whether the image is 16:9 (Width·9 = Height·16) and, for
// an SVG, its viewBox too (within a pixel's rounding).
func (f Facts) Is16x9() bool {
	if f.Width <= 0 || f.Height <= 0 || f.Width*9 != f.Height*16 {
		return false
	}
	if w, h := f.ViewBox[2], f.ViewBox[3]; w != 0 || h != 0 {
		return h > 0 && abs(w/h-16.0/9) < 1.0/float64(f.Height)
	}
	return true
}

// DataFill is the fraction of the image's height between DataTop and
// DataBottom (0 when there is no data).
func (f Facts) DataFill() float64 {
	if f.DataTop < 0 || f.DataBottom < f.DataTop || f.Height <= 0 {
		return 0
	}
	return float64(f.DataBottom-f.DataTop+1) / float64(f.Height)
}

// Read reads the figure at path, a .png or .svg file.
func Read(path string) (Facts, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Facts{}, err
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			return Facts{}, fmt.Errorf("%s: %w", path, err)
		}
		return PNG(img)
	case ".svg":
		return SVG(b)
	}
	return Facts{}, fmt.Errorf("%s: not a .png or .svg file", path)
}

// PNGSize is the size in pixels of the PNG at path, read from its header
// alone.
func PNGSize(path string) (w, h int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	return cfg.Width, cfg.Height, nil
}

// The axis lines: grey pixels (channels no more than greyTol apart) no
// brighter than lineMax — an axis's thin black line, anti-aliased, is
// grey, lighter the smaller the image — in one run at least minAxis of
// the image's side long: the leftmost such column of the left third is
// the y axis (the vertical grid lines stand right of it), the lowest such
// row of the bottom third the x axis (the horizontal grid lines above it).
const (
	lineMax = 235
	greyTol = 24
	minAxis = 0.3
)

// PNG reads the facts of a decoded figure.
func PNG(img image.Image) (Facts, error) {
	b := img.Bounds()
	f := Facts{Width: b.Dx(), Height: b.Dy(), DataTop: -1, DataBottom: -1}
	line := func(x, y int) bool {
		r, g, bl, _ := img.At(x, y).RGBA()
		r, g, bl = r>>8, g>>8, bl>>8
		return max(r, g, bl) <= lineMax && max(r, g, bl)-min(r, g, bl) <= greyTol
	}
	// longest is the longest run of line pixels along n steps from a
	// point, and where it ends.
	longest := func(n int, at func(i int) bool) (length, end int) {
		run := 0
		for i := 0; i < n; i++ {
			if !at(i) {
				run = 0
				continue
			}
			if run++; run > length {
				length, end = run, i
			}
		}
		return length, end
	}
	yx, yTop, yBottom := -1, 0, 0
	for x := b.Min.X; x < b.Min.X+b.Dx()/3 && yx < 0; x++ {
		if n, end := longest(b.Dy(), func(i int) bool { return line(x, b.Min.Y+i) }); float64(n) >= minAxis*float64(b.Dy()) {
			yx, yTop, yBottom = x, b.Min.Y+end-n+1, b.Min.Y+end
		}
	}
	if yx < 0 {
		return f, errors.New("no y axis line found")
	}
	xRight := -1
	for y := b.Max.Y - 1; y >= b.Max.Y-b.Dy()/3 && xRight < 0; y-- {
		if n, end := longest(b.Dx(), func(i int) bool { return line(b.Min.X+i, y) }); float64(n) >= minAxis*float64(b.Dx()) {
			xRight = b.Min.X + end
		}
	}
	if xRight < 0 {
		return f, errors.New("no x axis line found")
	}
	f.Axes = image.Rect(yx+1, yTop, xRight+1, yBottom+1)
	measured := map[[3]uint32]bool{}
	for _, c := range plot.MeasuredColors {
		measured[rgb(c)] = true
	}
	for y := f.Axes.Min.Y; y < f.Axes.Max.Y; y++ {
		for x := f.Axes.Min.X; x < f.Axes.Max.X; x++ {
			if measured[rgb(img.At(x, y))] {
				if f.DataTop < 0 {
					f.DataTop = y - b.Min.Y
				}
				f.DataBottom = y - b.Min.Y
				break
			}
		}
	}
	return f, nil
}

// SVG reads the facts of an SVG figure: its root's width, height (in
// pixels) and viewBox.
func SVG(b []byte) (Facts, error) {
	f := Facts{DataTop: -1, DataBottom: -1}
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return f, errors.New("no <svg> element")
		}
		if err != nil {
			return f, err
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "svg" {
			continue
		}
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "width", "height":
				v, err := strconv.Atoi(strings.TrimSpace(a.Value))
				if err != nil {
					return f, fmt.Errorf("SVG %s %q is not in pixels", a.Name.Local, a.Value)
				}
				if a.Name.Local == "width" {
					f.Width = v
				} else {
					f.Height = v
				}
			case "viewBox":
				parts := strings.Fields(strings.ReplaceAll(a.Value, ",", " "))
				if len(parts) != 4 {
					return f, fmt.Errorf("SVG viewBox %q is not four numbers", a.Value)
				}
				for i, p := range parts {
					v, err := strconv.ParseFloat(p, 64)
					if err != nil {
						return f, fmt.Errorf("SVG viewBox %q: %v", a.Value, err)
					}
					f.ViewBox[i] = v
				}
			}
		}
		if f.ViewBox[2] <= 0 || f.ViewBox[3] <= 0 {
			return f, errors.New("SVG root without a viewBox")
		}
		return f, nil
	}
}

func rgb(c color.Color) [3]uint32 {
	r, g, b, _ := c.RGBA()
	return [3]uint32{r >> 8, g >> 8, b >> 8}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
