"""go_embed_data: a go_library that embeds bakefs assets with //go:embed."""

load("@io_bazel_rules_go//go:def.bzl", "go_library", "go_test")
load(":providers.bzl", "BakefsAssetsInfo")
load(":transform.bzl", "MERGE_ATTRS", "TRANSFORM_ATTRS", "run_transform")

# What `bakefs embed --out DIR` writes (see embedgen.Generate): the Go file,
# its test, the manifest as a table, and below _data every file and variant
# of the tree. (It also writes bakefs-generated.txt, which the build does
# not use.)
_GO_FILE = "bakefs_embed.go"
_TEST_FILE = "bakefs_embed_test.go"
_TABLE_FILE = "bakefs-manifest.tsv"
_DATA_DIR = "_data"

def _is_identifier(name):
    if not name or not (name[0].isalpha() or name[0] == "_"):
        return False
    for c in name.elems():
        if not (c.isalnum() or c == "_"):
            return False
    return True

def _embed_package_impl(ctx):
    if not _is_identifier(ctx.attr.package) or ctx.attr.package == "main":
        fail("%s: attribute package: %r is not a Go package name for an importable package" % (
            ctx.label,
            ctx.attr.package,
        ))

    # A single asset_transform target is embedded as it is, with its
    # variants and hashed names. Anything else is first merged into one
    # tree by a transform without steps, which keeps the logical files and
    # adds the variants and hashed names that compress and hash ask for.
    # The merge also rewrites references to hashed names, as bakefs build
    # does after its chains: every target's tree is there. A single tree
    # is embedded as it is only when it has nothing to rewrite.
    srcs = ctx.attr.srcs
    if (len(srcs) == 1 and BakefsAssetsInfo in srcs[0] and
        not srcs[0][BakefsAssetsInfo].rewrite and
        not ctx.attr.compress and not ctx.attr.hash and not ctx.files.deps and
        not ctx.files.previous):
        tree = srcs[0][BakefsAssetsInfo].tree
    else:
        tree = ctx.actions.declare_directory(ctx.label.name + "_tree")
        run_transform(ctx, tree, [], merge = True)

    go_file = ctx.actions.declare_file(ctx.label.name + "/" + _GO_FILE)
    test_file = ctx.actions.declare_file(ctx.label.name + "/" + _TEST_FILE)
    table = ctx.actions.declare_file(ctx.label.name + "/" + _TABLE_FILE)
    data = ctx.actions.declare_directory(ctx.label.name + "/" + _DATA_DIR)

    # bakefs embed writes the package directory whole: it accepts the
    # empty _data directory that Bazel creates for the declared output,
    # and an input tree that the sandbox lays out as symbolic links, whose
    # bytes it checks against the tree's manifest.
    args = ctx.actions.args()
    args.add("embed")
    args.add("--tree", tree.path)
    args.add("--out", go_file.dirname)
    args.add("--package", ctx.attr.package)
    if ctx.attr.importpath:
        args.add("--import-path", ctx.attr.importpath)
    ctx.actions.run(
        executable = ctx.executable._bakefs,
        arguments = [args],
        inputs = [tree],
        outputs = [go_file, test_file, table, data],
        mnemonic = "BakefsEmbed",
        progress_message = "Generating Go package %s" % ctx.label,
    )
    return [
        DefaultInfo(files = depset([go_file])),
        OutputGroupInfo(embedsrcs = depset([table, data]), test = depset([test_file]), tree = depset([tree])),
    ]

_EMBED_ATTRS = dict(TRANSFORM_ATTRS)
_EMBED_ATTRS.update(MERGE_ATTRS)
_EMBED_ATTRS.update({
    "package": attr.string(
        mandatory = True,
        doc = "Go package name of the generated file.",
    ),
    "importpath": attr.string(
        doc = "Import path, written as the package's import comment.",
    ),
})

_embed_package = rule(
    implementation = _embed_package_impl,
    attrs = _EMBED_ATTRS,
    doc = "Internal to go_embed_data: merges the sources when needed and runs bakefs embed.",
)

def _output_group(name, of, group, **kwargs):
    """A private filegroup of the output group named group of the target of."""
    native.filegroup(
        name = name,
        srcs = [":" + of],
        output_group = group,
        visibility = ["//visibility:private"],
        **kwargs
    )

def go_embed_data(
        name,
        srcs,
        importpath,
        package = None,
        strip_prefix = "",
        compress = [],
        hash = False,
        base = "/",
        strict = False,
        profile = "release",
        deps = [],
        previous = None,
        releases = 2,
        visibility = None,
        **kwargs):
    """A go_library whose package embeds assets and serves them.

    `bakefs embed` writes a Go package that embeds an output tree's exact
    bytes with //go:embed. When srcs is a single asset_transform target
    with `rewrite = False` (and compress, hash and deps are unset) its tree
    is embedded as it is, with its variants and hashed names. Otherwise the
    sources are first merged into one tree by a transform without content
    steps: it keeps every logical file with the variants and hashed names
    its tree gave it, adds those that `compress` and `hash` ask for, and
    rewrites the references between the files to hashed names (resolving
    root-relative ones against `base`), as `bakefs build` does. The result
    is a rules_go go_library named `name` that go_binary and go_test depend
    on like any other; it depends on the runtime package
    github.com/bakefs/bakefs/fs.
    The generated package declares:

        var FS *bakefs.FS  // an io/fs.FS with build-time hashes and hashed names
        func Verify() error  // checks every embedded file against the manifest
        func Handler(opts ...bakefs.HandlerOption) http.Handler
        func Path(name string) string
        func Integrity(name string) string
        func FuncMap(prefix string) template.FuncMap

    With the library, the macro makes `name + "_test"`, a go_test of the
    package's generated test, which calls Verify.

    Args:
      name: name of the go_library target.
      srcs: files and asset_transform targets to embed. A file's logical
        path is its path below strip_prefix; an asset_transform target
        brings every logical file of its output tree.
      importpath: import path of the generated package.
      package: Go package name; default: the last element of importpath
        (it must then be a Go identifier).
      strip_prefix: directory removed from each source file's path, as in
        asset_transform (relative to this package, or to the repository
        root when it starts with "/"); default: this package's directory.
      compress: precompressed variants to add: any of "br", "gzip", "zstd".
      hash: give every file a fingerprinted name.
      base: URL path the tree's root is served under (default "/"), against
        which the merge resolves root-relative references
        (`/static/img/a.png`) when it rewrites references to hashed names;
        `base` in bakefs.toml.
      strict: make a reference to a local file that is not in the tree an
        error of the merge instead of a warning; `strict` in bakefs.toml.
      profile: "release" (default) or "dev".
      deps: files that steps read but that are not embedded themselves.
      previous: the output tree of the release before, as deployed (a
        directory target, or a filegroup of its files): its hashed files
        stay reachable in the new tree, and the new versions of scripts,
        style sheets, JSON, WebAssembly and SVG get dcz deltas against
        them; `[delta] previous` in bakefs.toml.
      releases: with previous, how many releases back files are kept
        (default 2).
      visibility: visibility of the go_library; the targets it is made
        from are private to the package.
      **kwargs: tags, testonly and other common attributes, given to every
        target the macro makes.
    """
    if not importpath:
        fail("go_embed_data %s: attribute importpath: an import path is required" % name)
    if package == None:
        package = importpath.rpartition("/")[2]
    gen = name + "_gen"
    _embed_package(
        name = gen,
        srcs = srcs,
        deps = deps,
        strip_prefix = strip_prefix,
        compress = compress,
        hash = hash,
        base = base,
        strict = strict,
        profile = profile,
        previous = previous,
        releases = releases,
        package = package,
        importpath = importpath,
        visibility = ["//visibility:private"],
        **kwargs
    )
    _output_group(gen + "_embedsrcs", gen, "embedsrcs", **kwargs)
    go_library(
        name = name,
        srcs = [":" + gen],
        embedsrcs = [":" + gen + "_embedsrcs"],
        importpath = importpath,
        deps = [Label("//fs")],
        visibility = visibility,
        **kwargs
    )
    _output_group(gen + "_test_src", gen, "test", **kwargs)
    go_test(
        name = name + "_test",
        srcs = [":" + gen + "_test_src"],
        embed = [":" + name],
        visibility = ["//visibility:private"],
        **kwargs
    )
