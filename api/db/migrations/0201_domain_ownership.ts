// Custom-domain ownership proof. A CNAME only shows that a domain points at our host, which any
// account could claim first; the TXT record `_switchboard-challenge.<domain>` carrying this
// account's own token shows that whoever runs the domain's DNS meant *this* account. The token
// is public once published, so it needs to be unguessable and unique, not secret: a volatile
// default gives every existing and future account its own, without touching account creation.
//
// Only a proven claim holds a domain exclusively now: a pending (unverified) claim no longer
// blocks the domain's real owner, so no account can squat another's domain.

export const id = '0201_domain_ownership';

export const sql = `
alter table accounts add column domain_challenge text not null
  default ('switchboard-verification=' || replace(gen_random_uuid()::text, '-', ''));
create unique index accounts_domain_challenge on accounts (domain_challenge);

drop index branding_domain;
create unique index branding_domain on branding (domain) where domain is not null and domain_is_verified;
`;
