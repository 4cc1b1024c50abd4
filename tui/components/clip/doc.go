// Package clip is the explorer's clipping panel: the latest batch's
// per-sample gradient norms against the clip threshold (the fraction
// clipped and a log-scale histogram with C marked), dp-sgd's adaptive C
// over the steps, and before a run the prescribed threshold.
package clip
