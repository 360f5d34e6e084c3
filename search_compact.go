package toolsearch

// The listings of a Searcher with SearchOptions.MaxListingBytes: its
// system-prompt section and <available-deferred-tools> block in their
// compact form when they are longer than the budget (prompt_compact.go
// has the rules), rendered once per registry change.

// listingTexts are the system-prompt section and the block of one view of
// one snapshot, compact or not.
type listingTexts struct {
	section, block string
	compact        bool // either is in its compact form
}

// section returns the system-prompt section the Searcher gives for snap.
func (s *Searcher) section(snap *snapshot) string {
	if s.opts.MaxListingBytes <= 0 {
		return s.promptTexts(snap).section
	}
	return s.listing(snap).section
}

// block returns the <available-deferred-tools> block the Searcher gives
// for snap.
func (s *Searcher) block(snap *snapshot) string {
	if s.opts.MaxListingBytes <= 0 {
		return s.promptTexts(snap).block
	}
	return s.listing(snap).block
}

// listing returns the listings of snap within MaxListingBytes, which must
// be set.
func (s *Searcher) listing(snap *snapshot) *listingTexts {
	return s.compact.get(snap, func(snap *snapshot, _ *listingTexts) *listingTexts {
		t := s.promptTexts(snap)
		out := &listingTexts{section: t.section, block: t.block}
		if len(t.names) == 0 {
			return out
		}
		budget := s.opts.MaxListingBytes
		if c, ok := compactListing([]listPart{sectionPart(t.names)}, "", budget); ok {
			out.section, out.compact = c, true
		}
		if c, ok := compactListing([]listPart{blockPart(t.names)}, "", budget); ok {
			out.block, out.compact = c, true
		}
		return out
	})
}

// withListingHint returns the budget (a negative one is 0, no bound) and
// the ToolSearch description d, followed, when the listing may be
// compact, by how to reach the tools it groups or leaves out.
func withListingHint(d string, budget int, pattern bool) (int, string) {
	switch {
	case budget <= 0:
		return 0, d
	case pattern:
		return budget, d + compactHintPattern
	}
	return budget, d + compactHintQuery
}

// noteUnlisted adds to res, a result without matches, the note on how to
// reach the tools the Searcher's listing does not name, when it is
// compact.
func (s *Searcher) noteUnlisted(res *Result, snap *snapshot) {
	if len(res.Matches) == 0 && s.opts.MaxListingBytes > 0 && s.listing(snap).compact {
		res.Notes = append(res.Notes, unlistedNote)
	}
}
