// This package is a copy of the root module's internal/benchdata, on
// purpose: the benchmarks module is a module of its own, and a module does
// not import another module's internal packages (they are no versioned
// API). The benchmarks of both modules must run on the same catalogs and
// queries, so benchdata.go is kept byte for byte the same as the root's;
// TestSameAsTheRoots fails when they differ. Change the root's, then copy
// it here.

package benchdata
