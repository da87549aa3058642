"""bakefs_tool: the repository that says which bakefs binary the rules run.

The rules' actions run `@bakefs_tool//:bakefs`. By default it is an alias of
`//cmd/bakefs`, built from source with rules_go for the execution platform.
Given a prebuilt binary, it is that file instead, so that a build needs
neither the tool's Go modules (esbuild, x/image, ...) nor a second standard
library for the execution configuration.
"""

def _main_repo_label(label):
    """Returns label as text that means the same from any repository.

    Bazel 4 writes a label of the main repository without its "@", which
    another repository's BUILD file would read as one of its own.

    Args:
      label: a Label.

    Returns:
      the label's text, starting with "@".
    """
    text = str(label)
    if text.startswith("//"):
        text = "@" + text
    return text

def _bakefs_tool_impl(rctx):
    if not rctx.attr.prebuilt:
        rctx.file("BUILD.bazel", """\
# Written by bakefs_tool: the bakefs tool built from source.
alias(
    name = "bakefs",
    actual = "{source}",
    visibility = ["//visibility:public"],
)
""".format(source = _main_repo_label(rctx.attr.source)))
        return

    binary = rctx.path(rctx.attr.prebuilt)
    if not binary.exists:
        fail("bakefs_tool %s: attribute prebuilt: %s does not exist" % (rctx.name, rctx.attr.prebuilt))

    # A copy, not a symbolic link, so that the mode is ours to set and the
    # file stays when the repository it came from is fetched again.
    result = rctx.execute(["cp", str(binary), "bakefs"])
    if not result.return_code:
        result = rctx.execute(["chmod", "0755", "bakefs"])
    if result.return_code:
        fail("bakefs_tool %s: attribute prebuilt: cannot copy %s: %s" % (rctx.name, rctx.attr.prebuilt, result.stderr))

    # The binary must run here, on the host, which is the execution
    # platform of a local build; "bakefs steps" lists the steps it knows.
    result = rctx.execute(["./bakefs", "steps"])
    if result.return_code:
        fail(("bakefs_tool %s: attribute prebuilt: %s does not run on this machine " +
              "(exit status %d): %s%s") % (
            rctx.name,
            rctx.attr.prebuilt,
            result.return_code,
            result.stderr,
            "\nIt must be a bakefs binary for the execution platform, e.g. from `go build ./cmd/bakefs`.",
        ))
    rctx.file("BUILD.bazel", """\
# Written by bakefs_tool: a prebuilt bakefs binary, copied from {prebuilt}.
exports_files(
    ["bakefs"],
    visibility = ["//visibility:public"],
)
""".format(prebuilt = _main_repo_label(rctx.attr.prebuilt)))

bakefs_tool = repository_rule(
    implementation = _bakefs_tool_impl,
    attrs = {
        "prebuilt": attr.label(
            allow_single_file = True,
            doc = """A bakefs binary for the execution platform, built from the
same version as the rules (`go build ./cmd/bakefs`), e.g. `@bakefs_prebuilt//file:downloaded`
from an `http_file` with `executable = True`. Unset: the tool is built from
`source`.""",
        ),
        "source": attr.label(
            default = Label("//cmd/bakefs"),
            doc = "The go_binary of the tool, used when `prebuilt` is unset.",
        ),
    },
    doc = """Declares the repository whose `:bakefs` target the rules run.

Declared by `bakefs_register_toolchains` in //rules:toolchains.bzl; a
workspace that declares a repository named `bakefs_tool` itself keeps it.""",
)
