"""Toolchain registration for WORKSPACE users of bakefs's rules.

Load this file after bakefs_dependencies() (//:deps.bzl) has declared
rules_go and Gazelle, and after bakefs_go_dependencies() (//:go_deps.bzl).
"""

load("@bazel_gazelle//:deps.bzl", "gazelle_dependencies")
load("@io_bazel_rules_go//go:deps.bzl", "go_register_toolchains", "go_rules_dependencies")

def bakefs_register_toolchains(go_version = "1.26.8"):
    """Declares rules_go's dependencies, a Go SDK and Gazelle's dependencies.

    The bakefs tool that the rules run is built from source for the
    execution platform with these toolchains.

    Args:
      go_version: the Go SDK release to download, e.g. "1.26.8". Ignored
        when the workspace already declares a repository named "go_sdk"
        (go_local_sdk, go_download_sdk, ...); that SDK is then used.
    """
    go_rules_dependencies()
    if "go_sdk" in native.existing_rules():
        go_register_toolchains()
    else:
        go_register_toolchains(version = go_version)
    gazelle_dependencies(go_sdk = "go_sdk")
