"""Repositories that bakefs's Bazel rules need, for WORKSPACE users.

Call bakefs_dependencies() first in WORKSPACE, then
bakefs_go_dependencies() from //:go_deps.bzl, then
bakefs_register_toolchains() from //rules:toolchains.bzl.
"""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

# Versions the rules are tested with. The patches make them work with
# Go 1.20 and later (no precompiled standard library, no "go tool pack",
# "-p" for the assembler) and let Gazelle build its tools in module mode.
RULES_GO_VERSION = "v0.34.0"
GAZELLE_VERSION = "v0.26.0"

def bakefs_dependencies():
    """Declares rules_go and Gazelle unless the workspace already has them.

    A workspace that declares io_bazel_rules_go or bazel_gazelle itself
    keeps its own; it then needs a rules_go that supports its Go SDK.
    """
    maybe(
        http_archive,
        name = "io_bazel_rules_go",
        sha256 = "16e9fca53ed6bd4ff4ad76facc9b7b651a89db1689a2877d6fd7b82aa824e366",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/rules_go/releases/download/{v}/rules_go-{v}.zip".format(v = RULES_GO_VERSION),
            "https://github.com/bazelbuild/rules_go/releases/download/{v}/rules_go-{v}.zip".format(v = RULES_GO_VERSION),
        ],
        patches = [Label("//tools/bazel/patches:rules_go-v0.34.0-go1.26.patch")],
        patch_args = ["-p1"],
    )
    maybe(
        http_archive,
        name = "bazel_gazelle",
        sha256 = "501deb3d5695ab658e82f6f6f549ba681ea3ca2a5fb7911154b5aa45596183fa",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/bazel-gazelle/releases/download/{v}/bazel-gazelle-{v}.tar.gz".format(v = GAZELLE_VERSION),
            "https://github.com/bazelbuild/bazel-gazelle/releases/download/{v}/bazel-gazelle-{v}.tar.gz".format(v = GAZELLE_VERSION),
        ],
        patches = [Label("//tools/bazel/patches:bazel_gazelle-v0.26.0-module-mode.patch")],
        patch_args = ["-p1"],
    )
