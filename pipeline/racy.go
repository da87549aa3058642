package pipeline

import "time"

// A file's modification time says when it last changed only to the
// granularity of its file system's timestamps: a second change within
// that granularity may leave the time as it was. A record keyed by the
// time (a fileIndex stamp, an incremental memo) or a result that assumes
// the bytes did not change after a moment (a cache entry's dependencies)
// is safe only when the time is far enough before that moment; a file
// modified closer to it is racy, as git calls such index entries, and is
// hashed again next time rather than trusted. Only the record is
// untrustworthy: a result computed from bytes that were hashed stays
// valid for those bytes.

// racyWindow is the granularity assumed of a file system that records
// whole seconds (FAT records 2 s, HFS+ and some network file systems 1 s).
const racyWindow = 2 * time.Second

// fineRacyWindow is the granularity assumed of a file system with
// sub-second times (ext4, XFS, Btrfs, APFS, NTFS): Linux stamps files from
// a clock that advances once a tick, 1 to 10 ms, and may lag the clock
// that time.Now reads by as much.
const fineRacyWindow = 50 * time.Millisecond

// racy reports whether a file whose modification time is mtime may have
// changed at or after t without its time showing it: mtime is after t, or
// within the file system's granularity before it (racyWindow for a time
// of whole seconds, as a coarse file system writes, fineRacyWindow else).
func racy(mtime, t time.Time) bool {
	window := fineRacyWindow
	if mtime.Nanosecond() == 0 {
		window = racyWindow
	}
	return mtime.After(t.Add(-window))
}
