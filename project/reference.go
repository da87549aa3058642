package project

// Reference describes every key of a project file and how rules take
// files; bakefs help project prints it.
const Reference = `A project file (bakefs.toml) is TOML. Every path in it is relative to the
directory of the file; src, out, cache and the package's dir may also be
absolute.

  src      = "web"            # source root (required)
  out      = "build/assets"   # output tree + manifest (required without [package]; with
                              # one, leave it out unless a server reads the tree itself:
                              # the tree is then kept in the cache, in .bakefs-cache/tree)
  cache    = ".bakefs-cache"  # cache directory; "" disables it (default ".bakefs-cache")
  cache_size = "1GiB"         # bound of the cache, least recently used pruned first (default 1GiB)
  remote_cache = "https://cache.example.com"  # shared cache (Bazel HTTP protocol); no credentials here
  profile  = "release"        # or "dev": faster compression levels
  compress = ["br", "gzip", "zstd"]  # variants added to every rule's chain (default none)
  hash     = true             # fingerprint every output (hashed names; default false)
  base     = "/static/"       # URL path the output tree's root is served under (default "/")
  strict   = false            # warnings are errors (a reference to a file not in the tree,
                              # a classic script that a bundle keeps nothing of)

  [package]                   # optional: bakefs build also writes a Go package
  dir    = "internal/assets"  # that embeds a copy of the tree
  name   = "assets"
  import = "example.com/app/internal/assets"

  [delta]                     # optional: delta updates for returning visitors
  previous = "releases/v1"    # the output tree of the release before, as deployed
  releases = 2                # how many releases back files are kept (default 2)

  [[rule]]
  match = "js/app.ts"                            # one pattern or a list
  steps = ["bundle:format=esm", "minify"]        # the step language (bakefs steps)

  [[rule]]
  output = "js/legacy.js"                        # join files, in order, into output:
  concat = ["js/gestures.js", "js/app.js"]       # classic scripts, style sheets
  steps  = ['concat:footer="/*! end */"', "minify"]  # concat options first, if any

  [[rule]]
  match        = "public/**"
  strip_prefix = "public"                        # public/favicon.ico is favicon.ico
  prefix       = ""                              # a directory put before the rest
  steps        = []
  hash         = false                           # overrides the top level
  compress     = []                              # overrides the top level

  [[rule]]
  match   = "vendor/**"
  steps   = []
  rewrite = false                                # leave its references as they are

Each source file goes to the first rule whose pattern matches it; files
that no rule matches are left out. Patterns use path.Match syntax plus
"**" for zero or more directories. A file that a concat rule joins is a
part: no pattern rule takes it, and several concat rules may join it. A
pattern that matches no file is an error, and one whose files all go to
earlier patterns is reported as shadowed. Two rules that make one logical
path are an error naming both. A rule's chain is its steps, then its
compression steps, then "hash" when hashing is on.

With hashing on, the references between output files (url() in CSS; src,
href, srcset in HTML and templates; href in SVG; icons of web app
manifests; sourceMappingURL comments) are rewritten to the hashed names of
their targets, relative ones resolved against the referring file and
root-relative ones against base; the tree on disk also holds each hashed
file under its hashed name (a hard link), so a static server can serve it.
`
