import { Link } from 'wouter';

export default function NotFoundPage() {
  return (
    <div className="page page-narrow">
      <h1 className="page-title">Page not found</h1>
      <p className="muted">
        There is nothing at this address. It may have moved, or the app may not be available on your account.
      </p>
      <Link href="~/" className="btn btn-primary">
        Back to apps
      </Link>
    </div>
  );
}
