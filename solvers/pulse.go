package solvers

// Pulses (Config.Pulse): what a progress display sees of an oracle call
// or a pass over the data between two checkpoints. A call's goroutines
// count the samples they feed in their own slot and add them to the
// runner's count once per PulseWork floats, so the hot loop pays one
// comparison per block; the count and the call never change a result.

// pulseWork is PulseWork (tests lower it to see many pulses on a small
// run).
var pulseWork int64 = PulseWork

// startPulses resets the counts of the call that starts.
func (r *runner) startPulses() {
	if r.cfg.Pulse == nil {
		return
	}
	r.inCall.Store(0)
	for _, s := range r.slots {
		s.unpulsed = 0
	}
}

// pulse counts nb samples fed by slot s in the current call and, once
// the slot has fed PulseWork floats since its last pulse, reports the
// run's gradient evaluations (those before the call, which no goroutine
// changes during it, plus the call's reported so far).
func (r *runner) pulse(s *slot, nb int) {
	s.unpulsed += int64(nb)
	if s.unpulsed*int64(r.sd) < pulseWork {
		return
	}
	done := r.inCall.Add(s.unpulsed)
	s.unpulsed = 0
	r.cfg.Pulse(r.gradEvals + done)
}

// tickPulse is the pulse of a solver that feeds its oracle itself (ticks):
// once per PulseWork floats of gradient evaluations.
func (r *runner) tickPulse() {
	if r.cfg.Pulse == nil || r.gradEvals < r.nextPulse {
		return
	}
	r.nextPulse = r.gradEvals + max(1, pulseWork/int64(max(r.sd, 1)))
	r.cfg.Pulse(r.gradEvals)
}
