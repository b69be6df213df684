package project

import (
	"context"

	"cairn/backend/identity"
	"cairn/backend/kb"
	"cairn/backend/store"
)

// identityVersion is the version of backend/identity's decision the stored
// identities come from; a project with older ones is retitled when it is
// next changed or indexed.
const identityVersion = "2"

// Retitle decides every document's identity (title, organisation, kind,
// period) for the whole library again, from what the readers stored:
// titles depend on the other documents (a cover line many share is
// boilerplate), so they are recomputed when documents come or go. The
// user's own titles stay.
func (p *Project) Retitle(ctx context.Context) error {
	srcs, err := p.store.IdentitySources(ctx, identity.BodyPages)
	if err != nil {
		return err
	}
	in := make([]identity.Input, len(srcs))
	for i, s := range srcs {
		in[i] = identity.InputOf(s.ID, s.FileName, s.MetaTitle, s.ReaderTitle, s.Pages)
	}
	out := identity.Assign(in)
	set := make(map[int64]store.DocIdentity, len(out))
	for i, o := range out {
		set[in[i].ID] = store.DocIdentity{Title: o.Title, Organisation: o.Organisation, DocType: o.DocType, Period: o.Period}
	}
	if err := p.store.SetIdentities(ctx, set); err != nil {
		return err
	}
	return p.store.SetMeta(ctx, "identity_version", identityVersion)
}

// retitleIfStale retitles a project whose identities an older decision
// made (or none yet: a project from before identities).
func (p *Project) retitleIfStale(ctx context.Context) error {
	if p.ReadOnly() {
		return nil
	}
	v, err := p.store.Meta(ctx, "identity_version")
	if err != nil || v == identityVersion {
		return err
	}
	return p.Retitle(ctx)
}

// EditIdentity renames a document and sets its organisation, kind and
// period as the user wrote them; the file is not read again and later
// retitling keeps them.
func (p *Project) EditIdentity(ctx context.Context, id int64, title, org, docType, period string) (kb.Document, error) {
	if err := p.store.EditIdentity(ctx, id, store.DocIdentity{Title: title, Organisation: org, DocType: docType, Period: period}); err != nil {
		return kb.Document{}, err
	}
	return p.store.Document(ctx, id)
}

// ResetIdentity gives a document's identity back to the library's decision.
func (p *Project) ResetIdentity(ctx context.Context, id int64) (kb.Document, error) {
	if err := p.store.ResetIdentity(ctx, id); err != nil {
		return kb.Document{}, err
	}
	if err := p.Retitle(ctx); err != nil {
		return kb.Document{}, err
	}
	return p.store.Document(ctx, id)
}
