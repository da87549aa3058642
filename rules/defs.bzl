"""Public API of bakefs's Bazel rules.

    load("@com_github_bakefs_bakefs//rules:defs.bzl", "asset_transform", "go_embed_data")

asset_transform runs a chain of bakefs steps (the step language of the CLI's
--step) over source files and writes an output tree with its manifest;
go_embed_data turns files and asset_transform targets into a rules_go
go_library that embeds them with //go:embed. See rules/README.md.
"""

load("//rules/private:embed.bzl", _go_embed_data = "go_embed_data")
load("//rules/private:providers.bzl", _BakefsAssetsInfo = "BakefsAssetsInfo")
load("//rules/private:transform.bzl", _asset_transform = "asset_transform")

asset_transform = _asset_transform
go_embed_data = _go_embed_data
BakefsAssetsInfo = _BakefsAssetsInfo
