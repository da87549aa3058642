package synth

import (
	"hash/fnv"
	"math/rand/v2"
	"strings"
)

// newRand returns the generator of one file: its stream depends only on the
// seed, the kind and the index.
func newRand(seed uint64, kind string, i int) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(kind))
	return rand.New(rand.NewPCG(seed, h.Sum64()^uint64(i)*0x9e3779b97f4a7c15))
}

// targetSize draws a file size between half and one and a half times mean.
func targetSize(r *rand.Rand, mean int) int {
	return mean/2 + r.IntN(mean+1)
}

// words give identifiers and text some variety, so that compressors see
// something closer to real sources than one repeated line.
var words = strings.Fields(`
	account action active address admin alert amount anchor api archive
	asset audio author avatar badge balance banner basket batch billing
	block board body border bottom bounds branch brand browser buffer
	button cache calendar camera canvas caption card cart catalog category
	cell center chart checkout child circle client clock cloud cluster
	code color column comment config contact content context control
	cookie counter country coupon course cursor customer dashboard data
	date debug delivery detail device dialog digest display document
	domain draft drawer editor email entry error event export feature
	feed field filter folder footer form frame gallery gateway grid group
	header health height helper hidden history home host icon image index
	input invoice item journal key label layout ledger level limit link
	list loader locale lock login logo manager margin market media member
	menu message meta metric mobile modal mode module monitor notice order
	owner padding page panel parent payment picker pixel player policy
	popup portal post preview price primary print product profile promo
	query queue quota radio range rating reader record region report
	request result review role route row sample scale schedule schema
	screen search section select sender server session setting shadow
	share sheet shipping sidebar signal size slider slot source spinner
	stack stage status step stock store stream style summary support
	switch table tag target task team theme thread ticket timer title
	toast token toolbar tooltip topic track trigger update upload user
	value vendor version video view viewer volume wallet widget width
	window worker zone`)

// word returns a random word.
func word(r *rand.Rand) string { return words[r.IntN(len(words))] }

// title returns a word with its first letter in upper case.
func title(r *rand.Rand) string {
	w := word(r)
	return strings.ToUpper(w[:1]) + w[1:]
}

// sentence returns n random words with a capital and a full stop.
func sentence(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString(title(r))
	for i := 1; i < n; i++ {
		b.WriteByte(' ')
		b.WriteString(word(r))
	}
	b.WriteByte('.')
	return b.String()
}

// hexColor returns a #rrggbb color.
func hexColor(r *rand.Rand) string {
	const digits = "0123456789abcdef"
	b := []byte("#000000")
	for i := 1; i < len(b); i++ {
		b[i] = digits[r.IntN(16)]
	}
	return string(b)
}
