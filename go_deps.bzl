"""Go modules that bakefs is built from, as go_repository rules.

Keep in step with go.mod: one entry per module that a Bazel-built package
imports, with the version and the "h1:" sum of go.sum (tools/bazel-test.sh
checks both ways). Names follow Gazelle's convention, so Gazelle resolves
imports to them.

This file is the one list of the modules. Gazelle reads it through a
`# gazelle:repository_macro` directive: the one in this repository's
WORKSPACE when it writes this repository's BUILD files, and the one in
go_deps.gazelle when go_repository generates the BUILD files of each
module. Every go_repository below has go_deps.gazelle as its
`build_config`, so an import of one module from another (esbuild's of
golang.org/x/sys/unix) resolves to these names in any workspace, whatever
its own WORKSPACE says.
"""

load("@bazel_gazelle//:deps.bzl", "go_repository")

# What Gazelle reads, in each go_repository, to map import paths to the
# repositories below (see the file's doc).
_BUILD_CONFIG = Label("//:go_deps.gazelle")

def bakefs_go_dependencies():
    """Declares the Go modules of bakefs's tool.

    Call it before go_rules_dependencies(), which would otherwise declare
    golang.org/x/sys at an older version. The calls are plain go_repository
    rules so that Gazelle, through the gazelle:repository_macro directive
    in WORKSPACE, reads them.
    """
    go_repository(
        name = "com_github_andybalholm_brotli",
        importpath = "github.com/andybalholm/brotli",
        sum = "h1:IdkhjSe/+34U+fP7FSR2Q6Poj1hnHUa2GoWmzXJd6qY=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v1.3.0",
    )
    go_repository(
        name = "com_github_bmatcuk_doublestar_v4",
        importpath = "github.com/bmatcuk/doublestar/v4",
        sum = "h1:oTKkRmRuOsKMqFe1AQazd9gGBFNEpOmgKp/xzB97dnA=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v4.10.4",
    )
    go_repository(
        name = "com_github_burntsushi_toml",
        importpath = "github.com/BurntSushi/toml",
        sum = "h1:dRaEfpa2VI55EwlIW72hMRHdWouJeRF7TPYhI+AUQjk=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v1.6.0",
    )
    go_repository(
        name = "com_github_disintegration_imaging",
        importpath = "github.com/disintegration/imaging",
        sum = "h1:w1LecBlG2Lnp8B3jk5zSuNqd7b4DXhcjwek1ei82L+c=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v1.6.2",
    )
    go_repository(
        name = "com_github_ebitengine_purego",
        importpath = "github.com/ebitengine/purego",
        sum = "h1:K+0AjQp63JEZTEMZiwsI9g0+hAMNohwUOtY0RPGexmc=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v0.8.3",
    )
    go_repository(
        name = "com_github_evanw_esbuild",
        importpath = "github.com/evanw/esbuild",
        sum = "h1:A2uETn4jrQTcXaT/shwTDTYBxDjl7fV7nXmUrJxfA2w=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v0.28.2",
    )
    go_repository(
        name = "com_github_fsnotify_fsnotify",
        importpath = "github.com/fsnotify/fsnotify",
        sum = "h1:b0/UzAf9yR5rhf3RPm9gf3ehBPpf0oZKIjtpKrx59Ho=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v1.10.1",
    )
    go_repository(
        name = "com_github_gen2brain_avif",
        importpath = "github.com/gen2brain/avif",
        sum = "h1:Ga/ss7qcWWQm2bxFpnjYjhJsNfZrWs5RsyklgFjKRSE=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v0.4.4",
    )
    go_repository(
        name = "com_github_gen2brain_webp",
        importpath = "github.com/gen2brain/webp",
        sum = "h1:MvQR75yIPU/9nSqYT5h13k4URaJK3gf9tgz/ksRbyEg=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v0.5.5",
    )
    go_repository(
        name = "com_github_klauspost_compress",
        importpath = "github.com/klauspost/compress",
        sum = "h1:dD0v/bvxtjCBqQu6sx1TNWkalEY5lNTIe+HY9w8TeNI=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v1.20.4",
    )
    go_repository(
        name = "com_github_molecule_man_go_brrr",
        importpath = "github.com/molecule-man/go-brrr",
        sum = "h1:EwaJUzRIlp/dFmIpzq4J17CA5Zi5OHo2vOGmu09hF1w=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v1.3.1",
    )
    go_repository(
        name = "com_github_tdewolff_minify_v2",
        importpath = "github.com/tdewolff/minify/v2",
        sum = "h1:RDGc2ypqgM/fwapxPFWXFicyfL5MK0s1Ky3rV8mNjZs=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v2.25.0",
    )
    go_repository(
        name = "com_github_tdewolff_parse_v2",
        importpath = "github.com/tdewolff/parse/v2",
        sum = "h1:a5gjBNi5lNyrtUxM3Npxqm/BsFCtJ7LwPQJkmLUDFeE=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v2.25.0",
    )
    go_repository(
        name = "com_github_tetratelabs_wazero",
        importpath = "github.com/tetratelabs/wazero",
        sum = "h1:IcZ56OuxrtaEz8UYNRHBrUa9bYeX9oVY93KspZZBf/I=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v1.9.0",
    )
    go_repository(
        name = "org_golang_x_image",
        importpath = "golang.org/x/image",
        sum = "h1:1AvuPcuoOTJpA7s4VZ5umrb90T3So0rkB/bSGmxkxik=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v0.48.0",
    )
    go_repository(
        name = "org_golang_x_sys",
        importpath = "golang.org/x/sys",
        sum = "h1:dkKZEFTEKaLr1sjhs0WiKqoi8Jj5nHbS3Njmx1UoMJs=",
        build_config = _BUILD_CONFIG,
        build_file_proto_mode = "disable",
        version = "v0.50.0",
    )
