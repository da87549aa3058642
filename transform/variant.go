package transform

// The margin a variant (a compressed form, or a delta against an earlier
// release) must save over the bytes it stands for to be kept.
const (
	MinSavingBytes   = 32
	MinSavingPercent = 5
)

// WorthKeeping reports whether a variant of encoded bytes saves enough over
// identity bytes: at least MinSavingBytes and MinSavingPercent percent.
func WorthKeeping(identity, encoded int) bool {
	saved := identity - encoded
	return saved >= MinSavingBytes && int64(saved)*100 >= int64(identity)*MinSavingPercent
}
