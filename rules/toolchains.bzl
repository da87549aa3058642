"""Toolchain registration for WORKSPACE users of bakefs's rules.

Load this file after bakefs_dependencies() (//:deps.bzl) has declared
rules_go and Gazelle, and after bakefs_go_dependencies() (//:go_deps.bzl).
"""

load("@bazel_gazelle//:deps.bzl", "gazelle_dependencies")
load("@io_bazel_rules_go//go:deps.bzl", "go_register_toolchains", "go_rules_dependencies")
load("//rules/private:tool.bzl", "bakefs_tool")

def bakefs_register_toolchains(go_version = "1.26.8", prebuilt = None):
    """Declares rules_go's dependencies, a Go SDK, Gazelle's dependencies and the bakefs tool.

    By default the bakefs tool that the rules run is built from source for
    the execution platform with these toolchains (esbuild, x/image and the
    compressors through the go_repository rules of bakefs_go_dependencies,
    and the Go standard library once more for the execution configuration).
    With `prebuilt`, the rules run that binary instead and build none of it.

    Args:
      go_version: the Go SDK release to download, e.g. "1.26.8". Ignored
        when the workspace already declares a repository named "go_sdk"
        (go_local_sdk, go_download_sdk, ...); that SDK is then used.
      prebuilt: label of a bakefs binary for the execution platform, built
        from the same version as these rules (`go build ./cmd/bakefs`), for
        example "@bakefs_prebuilt//file:downloaded" from an http_file with
        `executable = True`. Default: build the tool from source.
    """
    go_rules_dependencies()
    if "go_sdk" in native.existing_rules():
        go_register_toolchains()
    else:
        go_register_toolchains(version = go_version)
    gazelle_dependencies(go_sdk = "go_sdk")
    if "bakefs_tool" not in native.existing_rules():
        bakefs_tool(name = "bakefs_tool", prebuilt = prebuilt)
