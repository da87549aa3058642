package transform

import (
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
)

// hashOptions are the options of the hash step: it takes none.
type hashOptions struct{}

func init() {
	Register("hash", "1", "give files a fingerprinted name (app.3f2a1b9c0d.js) in the manifest", Finishing, newHash)
}

// hashStep marks every asset Hashed but those content-named already
// (Fingerprinted), whose one name is the URL that their importers use. The bytes are not changed: the
// manifest writer computes the SHA-256 (SHA256Hex), derives the hashed name
// with fs.HashedName and records Integrity for every file.
type hashStep struct{}

var _ Step = hashStep{}

func newHash(hashOptions) (Step, error) { return hashStep{}, nil }

// Run returns copies of the assets with Hashed set where it applies.
func (hashStep) Run(ctx *Context, in []*Asset) ([]*Asset, error) {
	out := make([]*Asset, len(in))
	for i, a := range in {
		c := a.Clone()
		c.Hashed = !a.Fingerprinted
		out[i] = c
	}
	return out, nil
}

// SHA256Hex returns the SHA-256 of data as 64 lowercase hex digits, the
// form of fs.Entry.SHA256 and of the sum given to fs.HashedName.
func SHA256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Integrity returns the Subresource Integrity value of data: "sha384-"
// followed by the standard, padded base64 of its SHA-384, the form of
// fs.Entry.Integrity.
func Integrity(data []byte) string {
	sum := sha512.Sum384(data)
	return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
}
