import { useState } from 'react';
import { Dialog } from '../../ui/Dialog';

/** The global customer search dialog. The search itself is not built yet; this is its frame. */
export default function SearchDialog({ onClose }: { onClose: () => void }) {
  const [query, setQuery] = useState('');
  return (
    <Dialog open onClose={onClose} title="Search customers" size="md">
      <label htmlFor="customer-search" className="sr-only">
        Customer ID
      </label>
      <input
        id="customer-search"
        className="input"
        type="search"
        autoFocus
        placeholder="Search by customer ID"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <p className="muted search-note">Customer search is not built yet, so no results will show here for now.</p>
    </Dialog>
  );
}
