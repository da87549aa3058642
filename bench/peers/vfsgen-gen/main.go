//go:build ignore

// Command vfsgen-gen writes DIR as a vfsgen package: vfsgen-gen DIR FILE
// PACKAGE. vfsgen is a library; bench/run.sh builds this program in a
// module of its own, so that bakefs's go.mod never names it.
package main

import (
	"log"
	"net/http"
	"os"

	"github.com/shurcooL/vfsgen"
)

func main() {
	if len(os.Args) != 4 {
		log.Fatal("usage: vfsgen-gen DIR FILE PACKAGE")
	}
	err := vfsgen.Generate(http.Dir(os.Args[1]), vfsgen.Options{Filename: os.Args[2], PackageName: os.Args[3], VariableName: "Assets"})
	if err != nil {
		log.Fatal(err)
	}
}
