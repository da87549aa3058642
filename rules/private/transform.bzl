"""asset_transform: runs a chain of bakefs steps over source files."""

load(":inputs.bzl", "ENCODINGS", "compress_args", "source_args")
load(":providers.bzl", "BakefsAssetsInfo")
load(":steps.bzl", "check_steps")

MANIFEST = "bakefs-manifest.json"

# Attributes shared by asset_transform and go_embed_data's inner transform.
# Those of the rewrite pass are each declared where they apply: rewrite on
# asset_transform (it marks the tree), base and strict on go_embed_data
# (MERGE_ATTRS), whose merge is the one transform that rewrites.
TRANSFORM_ATTRS = {
    "srcs": attr.label_list(
        allow_files = True,
        allow_empty = False,
        mandatory = True,
        doc = """Source files and asset_transform targets.

Each file becomes one logical file whose path is its path below
`strip_prefix`. An asset_transform target contributes every logical file
of its output tree, with the paths its manifest gives, so that transforms
chain target after target.""",
    ),
    "deps": attr.label_list(
        allow_files = True,
        doc = """Files that steps read but that are not transformed themselves,
such as the modules a `bundle` step imports or a tsconfig.json. They are
inputs of the action and are not listed as logical files.""",
    ),
    "strip_prefix": attr.string(
        doc = """Directory removed from each source file's path to form its
logical path. A relative value is relative to this package; a value that
starts with `/` is relative to the repository root. Default: this package's
directory, so `web/js/app.ts` in package `//web` becomes `js/app.ts`.""",
    ),
    "compress": attr.string_list(
        doc = "Precompressed variants to add for each file: any of " +
              ", ".join(["`%s`" % e for e in ENCODINGS]) + ".",
    ),
    "hash": attr.bool(
        default = False,
        doc = "Give each file a fingerprinted name (an alias in the manifest).",
    ),
    "profile": attr.string(
        default = "release",
        values = ["release", "dev"],
        doc = "Build profile: `release` (default) or `dev`; steps such as minify and bundle read it.",
    ),
    "_bakefs": attr.label(
        default = Label("@bakefs_tool//:bakefs"),
        executable = True,
        allow_files = True,
        cfg = "exec",
        doc = """The bakefs tool for the execution platform: //cmd/bakefs built
from source, or the prebuilt binary given to bakefs_register_toolchains.""",
    ),
}

# Attributes of the transform that merges every tree and rewrites the
# references between their files: go_embed_data's.
MERGE_ATTRS = {
    "base": attr.string(
        default = "/",
        doc = "URL path the tree's root is served under, against which root-relative references (`/static/img/a.png`) resolve when references are rewritten to hashed names; `base` in bakefs.toml.",
    ),
    "strict": attr.bool(
        default = False,
        doc = "Make a reference to a local file that is not in the tree an error instead of a warning; `strict` in bakefs.toml.",
    ),
    "previous": attr.label(
        allow_files = True,
        doc = """The output tree of the release before, as deployed: a directory
target (an asset_transform or go_embed_data tree) or the files of one (a
filegroup whose files include its `bakefs-manifest.json`). Its hashed files,
and those it kept from up to `releases` releases back, stay in the new tree
under their hashed names, and each hashed script, style sheet, JSON,
WebAssembly or SVG file gets a `dcz` delta against its kept versions;
`[delta] previous` in bakefs.toml.""",
    ),
    "releases": attr.int(
        default = 2,
        doc = "With `previous`, how many releases back files are kept; `[delta] releases` in bakefs.toml.",
    ),
}

def previous_tree(ctx):
    """Returns the directory of the previous release's tree, or None.

    Args:
      ctx: the rule context; its attributes include MERGE_ATTRS.

    Returns:
      The path of the tree's root: the directory given, or the directory of
      the outermost bakefs-manifest.json among the files given.
    """
    files = ctx.files.previous
    if not files:
        return None
    if len(files) == 1 and files[0].is_directory:
        return files[0].path
    manifests = [f for f in files if f.basename == MANIFEST]
    if not manifests:
        fail("%s: attribute previous: no %s among its files" % (ctx.label, MANIFEST))
    return sorted([m.dirname for m in manifests], key = len)[0]

def run_transform(ctx, out, steps, merge = False):
    """Registers the action that writes the output tree out.

    Args:
      ctx: the rule context; its attributes are TRANSFORM_ATTRS.
      out: the declared output directory.
      steps: the step texts, in order.
      merge: whether this is the transform that merges every tree (that
        of go_embed_data, whose attributes include MERGE_ATTRS), which
        rewrites references; others leave them.
    """
    args = ctx.actions.args()
    args.add("transform")
    args.add("--out", out.path)
    args.add("--no-cache")
    args.add("--profile", ctx.attr.profile)
    previous = []
    if merge:
        args.add("--base", ctx.attr.base)
        if ctx.attr.strict:
            args.add("--strict")
        tree = previous_tree(ctx)
        if tree:
            args.add("--previous", tree)
            args.add("--releases", str(ctx.attr.releases))
            previous = ctx.files.previous
    else:
        args.add("--no-rewrite")
    for step in steps:
        args.add("--step", step)
    compress_args(ctx, args)
    if ctx.attr.hash:
        args.add("--hash")
    inputs = source_args(ctx, args)
    ctx.actions.run(
        executable = ctx.executable._bakefs,
        arguments = [args],
        inputs = depset(inputs, transitive = [depset(ctx.files.deps), depset(previous)]),
        outputs = [out],
        mnemonic = "BakefsTransform",
        progress_message = "Transforming assets of %s (%s)" % (ctx.label, _describe_steps(steps)),
    )

def _describe_steps(steps):
    """Returns the steps as the progress message shows them.

    Bazel repeats the progress message when the action fails, so a step
    that the tool refuses is named there with its attribute.

    Args:
      steps: the step texts.

    Returns:
      "steps: a, b" (shortened past 100 characters), or "no steps".
    """
    if not steps:
        return "no steps"
    text = "steps: " + ", ".join(steps)
    if len(text) > 100:
        text = text[:99] + "..."
    return text

def _asset_transform_impl(ctx):
    check_steps(ctx)
    out = ctx.actions.declare_directory(ctx.label.name)
    run_transform(ctx, out, ctx.attr.steps)
    return [
        DefaultInfo(files = depset([out])),
        BakefsAssetsInfo(tree = out, manifest = MANIFEST, label = ctx.label, rewrite = ctx.attr.rewrite),
    ]

_ATTRS = dict(TRANSFORM_ATTRS)
_ATTRS.update({
    "rewrite": attr.bool(
        default = True,
        doc = """Rewrite the references in these files (url() in CSS; src, href,
srcset in HTML; href in SVG; web manifest icons; sourceMappingURL) to the
hashed names of their targets; `rewrite` of a rule in bakefs.toml. An
asset_transform leaves every reference as it is: the go_embed_data that
merges its tree, where every target is known, rewrites them, unless this
is False. The opt-out marks this target's tree only: an asset_transform
that lists it in srcs makes a tree of its own, with its own rewrite.""",
    ),
    "steps": attr.string_list(
        doc = """The chain of steps run over each source, in order, in bakefs's
step language: the same text as the CLI's `--step`, for example
`typescript`, `bundle:format=esm`, `minify`, `resize:width=800`, `gzip`,
`br`, `hash`. An empty list copies the sources and writes the manifest.""",
    ),
})

asset_transform = rule(
    implementation = _asset_transform_impl,
    attrs = _ATTRS,
    provides = [BakefsAssetsInfo],
    doc = """Runs a chain of bakefs steps over source files.

The output is a directory named after the target holding the exact bytes of
every logical file, its precompressed variants and `bakefs-manifest.json`.
The target provides `BakefsAssetsInfo`, so another `asset_transform` or a
`go_embed_data` can list it in `srcs`.

Example:

    asset_transform(
        name = "app_js",
        srcs = ["src/app.ts"],
        deps = glob(["src/**/*.ts", "src/**/*.css"]),
        steps = ["bundle:format=esm,minify=true"],
        strip_prefix = "src",
    )
""",
)
