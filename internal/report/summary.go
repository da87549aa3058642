package report

import (
	"fmt"

	"github.com/bakefs/bakefs/pipeline"
)

// Summary describes a run by its stats, as the line that ends a build
// says it: "21 files, 289.5 kB in → 134.0 kB out (variants included),
// 16 ran, 5 cached", with " (3 remote)" after cached when the run had a
// remote cache.
func Summary(s pipeline.Stats, remote bool) string {
	fromRemote := ""
	if remote {
		fromRemote = fmt.Sprintf(" (%d remote)", s.Remote)
	}
	kept := ""
	if s.Kept > 0 || s.Deltas > 0 {
		kept = fmt.Sprintf(" (%d kept from earlier releases, %d deltas)", s.Kept, s.Deltas)
	}
	return fmt.Sprintf("%d files%s, %s in → %s out (variants included), %d ran, %d cached%s",
		s.Files, kept, ByteSize(s.BytesIn), ByteSize(s.BytesOut), s.Ran, s.Cached, fromRemote)
}

// ByteSize formats a byte count in B, kB or MB (powers of 1000).
func ByteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
}
