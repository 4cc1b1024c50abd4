// Package shard cuts a sweep into shards that run anywhere — the tasks of
// a Slurm job array, a Kubernetes Indexed Job, GNU parallel — and merges
// their files into exactly the report one unsharded run gives.
//
// A sweep's work is its units (engine.SweepUnit): one trial at one grid
// point, every solver on the same draws, deterministic in (seed, point,
// trial). [Plan] deals the units to N shards by their estimated work
// (longest first, each to the least-loaded shard), the same plan in every
// process; [Run] runs shard I/N of an engine.PreparedSweep and returns its
// [File], which holds the unit results exactly (encoding/json: floats in
// the shortest round-trip form, NaN and ±Inf as strings) and no
// summary: the slope fits, the best points and every other summary are
// computed at merge time, from all the units, by the same engine code an
// unsharded sweep uses.
//
// A file carries its sweep's [Definition] — the run as the user gave it,
// the sweep, the dpso build, the platform and, for user data, the data
// file's SHA-256 — and the definition's [Definition.Fingerprint]. [Check]
// refuses files of different sweeps (naming the file and what differs),
// of different shard counts, a shard given twice or a shard missing;
// [Merge] hands their units to a sweep prepared from the definition,
// whose Report is then the unsharded report, bit for bit. Whatever the
// engine derives from the whole sweep when it prepares it (on user data,
// the privacy composition across trials, solvers and points) is derived by
// every shard and by the merge from the whole sweep, never from a shard's
// part of it.
//
// [File.Marshal] gives a file's bytes; the CLI writes them with package
// outfile (atomically, never over an existing file unless asked).
package shard
