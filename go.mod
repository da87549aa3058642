module github.com/bakefs/bakefs

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/andybalholm/brotli v1.3.0
	github.com/bakefs/bakefs/fs v0.0.0-00010101000000-000000000000
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/chromedp/cdproto v0.160.1
	github.com/chromedp/chromedp v0.23.1
	github.com/disintegration/imaging v1.6.2
	github.com/evanw/esbuild v0.28.2
	github.com/fsnotify/fsnotify v1.10.1
	github.com/gen2brain/avif v0.4.4
	github.com/gen2brain/webp v0.5.5
	github.com/klauspost/compress v1.20.4
	github.com/molecule-man/go-brrr v1.3.1
	github.com/tdewolff/minify/v2 v2.25.0
	github.com/tdewolff/parse/v2 v2.25.0
	github.com/tetratelabs/wazero v1.9.0
	golang.org/x/image v0.48.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/ebitengine/purego v0.8.3 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
)

// The runtime is a module of its own (fs/go.mod); this repository builds
// the tool against the runtime beside it. A release tags both (tools/release.sh).
replace github.com/bakefs/bakefs/fs => ./fs
