"""Turns a rule's sources into the bakefs CLI's --file and --tree arguments."""

load(":providers.bzl", "BakefsAssetsInfo")

# Encodings that --compress accepts, as Content-Encoding tokens.
ENCODINGS = ["br", "gzip", "zstd"]

def _repo_path(f):
    """Returns the path of f inside its repository ("web/app.ts")."""
    path = f.short_path
    if path.startswith("../"):
        # A file of an external repository: "../repo/web/app.ts".
        path = path[len("../"):].partition("/")[2]
    return path

def _strip_root(ctx):
    """Returns the repository-relative directory that strip_prefix names."""
    prefix = ctx.attr.strip_prefix
    if prefix.startswith("/"):
        root = prefix[1:]
    elif ctx.label.package and prefix:
        root = ctx.label.package + "/" + prefix
    elif prefix:
        root = prefix
    else:
        root = ctx.label.package
    root = root.rstrip("/")
    for part in root.split("/"):
        if part in (".", ".."):
            fail("%s: attribute strip_prefix: %r may not contain %r" % (ctx.label, prefix, part))
    return root

def logical_path(ctx, f):
    """Returns the logical path of source file f under strip_prefix.

    Fails, naming the attribute, when f is not below strip_prefix.

    Args:
      ctx: the rule context, with a strip_prefix attribute.
      f: a source File.

    Returns:
      The slash-separated logical path, such as "js/app.ts".
    """
    root = _strip_root(ctx)
    path = _repo_path(f)
    if not root:
        return path
    if not path.startswith(root + "/"):
        fail("%s: attribute srcs: %s is not below strip_prefix %r (directory %r)" % (
            ctx.label,
            f.short_path,
            ctx.attr.strip_prefix,
            root,
        ))
    return path[len(root) + 1:]

def source_args(ctx, args):
    """Adds --file and --tree arguments for ctx.attr.srcs to args.

    A target that provides BakefsAssetsInfo contributes its whole tree
    (--tree); every other file contributes one logical file (--file).

    Args:
      ctx: the rule context, with srcs and strip_prefix attributes.
      args: the Args of the transform action.

    Returns:
      A list of the input files and directories.
    """
    inputs = []
    seen = {}
    for target in ctx.attr.srcs:
        if BakefsAssetsInfo in target:
            info = target[BakefsAssetsInfo]
            tree = info.tree
            args.add("--tree" if info.rewrite else "--tree-as-is", tree.path)
            inputs.append(tree)
            continue
        for f in target.files.to_list():
            if f.is_directory:
                fail("%s: attribute srcs: %s is a directory; list its files, or an asset_transform target" % (ctx.label, target.label))
            logical = logical_path(ctx, f)
            if logical in seen:
                fail("%s: attribute srcs: %s and %s both have the logical path %r" % (
                    ctx.label,
                    seen[logical].short_path,
                    f.short_path,
                    logical,
                ))
            seen[logical] = f
            args.add("--file", "%s=%s" % (logical, f.path))
            inputs.append(f)
    return inputs

def compress_args(ctx, args):
    """Adds --compress for ctx.attr.compress, refusing unknown encodings.

    Args:
      ctx: the rule context, with a compress attribute.
      args: the Args of the transform action.
    """
    for i, name in enumerate(ctx.attr.compress):
        if name in ctx.attr.compress[:i]:
            fail("%s: attribute compress: %r is listed twice" % (ctx.label, name))
        if name not in ENCODINGS:
            fail("%s: attribute compress: unknown encoding %r (want one of %s)" % (
                ctx.label,
                name,
                ", ".join(ENCODINGS),
            ))
    if ctx.attr.compress:
        args.add_joined("--compress", ctx.attr.compress, join_with = ",")
