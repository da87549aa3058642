package embedgen

import (
	"testing"

	"github.com/bakefs/bakefs/internal/golden"
)

// Golden files live under testdata/golden; go test ./embedgen -update rewrites
// them, and a golden file that no test read fails the run (see
// internal/golden).
func TestMain(m *testing.M) { golden.Main(m) }
