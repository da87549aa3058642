package project

import "github.com/bakefs/bakefs/pipeline"

// Pipeline returns the pipeline that builds p as its file says: source
// root, profile, base, strictness, previous release and local cache (none when p.Cache is
// ""), which knows the output tree and the package as the build's own. The caller adds what the file does not say, such as a remote cache,
// progress or an Incremental, and may replace the rest.
func (p *Project) Pipeline() *pipeline.Pipeline {
	pipe := &pipeline.Pipeline{Root: p.Src, Profile: p.Profile, Base: p.Base, Strict: p.Strict,
		Previous: p.Previous, Releases: p.Releases}
	if p.Cache != "" {
		pipe.Cache = &pipeline.Cache{Dir: p.Cache, MaxSize: p.CacheSize, Own: []string{p.Out}}
		if p.Package != nil {
			pipe.Cache.Own = append(pipe.Cache.Own, p.Package.Dir)
		}
	}
	return pipe
}
