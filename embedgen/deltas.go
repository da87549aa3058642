package embedgen

import (
	"fmt"

	bakefs "github.com/bakefs/bakefs/fs"
)

// refuseDeltas reports a tree with deltas or kept files of earlier
// releases (a project with [delta]), which the generated package cannot
// carry yet: embedding it without them would silently drop what the
// manifest lists.
func refuseDeltas(m *bakefs.Manifest, tree string) error {
	for _, e := range m.Files {
		if len(e.Deltas) > 0 || e.Previous != "" {
			return fmt.Errorf("embedgen: %s: %s has deltas or files kept from earlier releases ([delta]), which a generated package does not embed yet; serve this tree from its directory, or build the package from a project without [delta]", tree, e.Path)
		}
	}
	return nil
}
