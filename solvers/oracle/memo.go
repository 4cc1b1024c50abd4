package oracle

// Memo is the state of an oracle call after its last vector and before
// Finish, as a [Memoizer] saves it: the pre-noise estimate's running sums
// and the batch statistics counted so far. Its zero value holds nothing;
// it is reused from call to call without allocating once grown.
type Memo struct {
	name   string
	d, s   int
	clip   float64
	groups int       // m of a coordinate-wise oracle (0 otherwise)
	state  []float64 // the running sum, or the m×d group means
	t      tally
	finite int
	sample []float64 // the quantiles' sample, unsorted (detail only)
	detail bool
	ok     bool
}

// Memoizer is implemented by the oracles whose state after a call's
// vectors depends on those vectors alone, in feeding order, and on the
// call's d, s and clip parameter (ClipGaussian, Coordinate: no randomness
// is drawn before Finish; the shuffle oracles' local randomizers draw per
// vector, so they are not). A caller that is about to feed a call the very
// vectors, in the same order, that it fed an earlier call with the same d,
// s and clip parameter — a loss whose per-sample gradient does not depend
// on w, on the same rows of a dataset — saves the earlier call's state
// and loads it in place of feeding them again: Finish then releases what
// it would release after feeding them, bit for bit, its noise drawn as
// always from the stream it is given.
type Memoizer interface {
	// Save copies the current call's state into m; the call has been fed
	// all its s vectors and not finished.
	Save(m *Memo)
	// Load sets the current call, right after its Begin and before any
	// vector, to the state m holds, and reports whether it did: not (and
	// nothing changes) when m holds no state of this oracle's kind, or one
	// saved from a call with another d, s, clip parameter or number of
	// groups, or without the batch's norm distribution that this call
	// keeps (SetDetail). A state saved with the distribution loads into a
	// call that does not keep it as that call would count it: the
	// histogram and the quantiles' sample dropped.
	Load(m *Memo) bool
}

// save copies the recorder's counts and the running state into m.
func (r *statsRecorder) save(m *Memo, name string, d, groups int, state []float64) {
	if r.t.size != r.s || !r.ready {
		panic("oracle " + name + ": Save before the call's last vector")
	}
	m.name, m.d, m.s, m.clip, m.groups = name, d, r.s, r.threshold, groups
	m.state = append(m.state[:0], state...)
	m.t, m.finite, m.detail = r.t, r.finite, !r.noDetail
	m.sample = append(m.sample[:0], r.sample...)
	m.ok = true
}

// load sets the recorder and state from m when m fits the call just
// begun (see Memoizer.Load).
func (r *statsRecorder) load(m *Memo, name string, d, groups int, state []float64) bool {
	if !m.ok || !r.ready || r.t.size != 0 || m.name != name || m.d != d || m.s != r.s || m.groups != groups ||
		m.clip != r.threshold || len(m.state) != len(state) || (!r.noDetail && !m.detail) {
		return false
	}
	copy(state, m.state)
	r.t = m.t
	if r.noDetail {
		r.t.hist, r.t.under, r.t.over = [HistBins]int{}, 0, 0
		return true
	}
	r.finite = m.finite
	r.sample = append(r.sample[:0], m.sample...)
	return true
}

// Save implements Memoizer.
func (o *ClipGaussian) Save(m *Memo) { o.stats.save(m, o.Name(), o.d, 0, o.sum[:o.d]) }

// Load implements Memoizer.
func (o *ClipGaussian) Load(m *Memo) bool { return o.stats.load(m, o.Name(), o.d, 0, o.sum[:o.d]) }

// Save implements Memoizer.
func (o *Coordinate) Save(m *Memo) {
	o.stats.save(m, o.Name(), o.d, o.lay.m, o.means[:o.lay.m*o.d])
}

// Load implements Memoizer.
func (o *Coordinate) Load(m *Memo) bool {
	if !o.stats.load(m, o.Name(), o.d, o.lay.m, o.means[:o.lay.m*o.d]) {
		return false
	}
	o.lay.next = o.s % o.lay.m
	return true
}
