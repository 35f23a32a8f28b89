import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import { ProductBodySchema, type Product } from '../../../../api/contract/apps/payments';
import { COMMON_CURRENCIES, currencyExponent, formatMinor, parseMajor, toMajor } from '../../../../api/contract/money';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors } from '../../../ui/form';
import { PaymentsState, useStripeConnection } from './connection';
import { StripeStandInNotice } from '../_frame/subscribe';
import { useIsAdmin } from './role';

type Form = { name: string; description: string; amount: string; currency: string };

function ProductDialog({
  product,
  defaultCurrency,
  onClose,
  onSaved,
}: {
  product: Product | null;
  defaultCurrency: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const api = useApi();
  const [form, setForm] = useState<Form>(() => ({
    name: product?.name ?? '',
    description: product?.description ?? '',
    amount:
      product?.unitAmount != null && product.currency
        ? toMajor(product.unitAmount, product.currency).toFixed(currencyExponent(product.currency))
        : '',
    currency: product?.currency ?? defaultCurrency,
  }));
  const [touched, setTouched] = useState(false);
  const formErrors = useFormErrors();
  const minor = parseMajor(form.amount, form.currency || 'usd');
  const checked = check(ProductBodySchema, {
    name: form.name,
    description: form.description || null,
    unitAmount: minor ?? NaN,
    currency: form.currency,
  });
  const errors = { ...(checked.ok ? {} : checked.fields), ...formErrors.errors };
  const amountError =
    form.amount && minor === null
      ? `Type an amount in ${form.currency.toUpperCase()} such as ${form.currency === 'jpy' ? '500' : '12.50'}`
      : errors.unitAmount;
  const set = (k: keyof Form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    formErrors.clear(k === 'amount' ? 'unitAmount' : k);
  };
  const save = async () => {
    setTouched(true);
    if (!checked.ok) throw formErrors.invalid({});
    try {
      if (product) await api.put(`/payments/products/${product.id}`, checked.value);
      else await api.create('/payments/products', checked.value);
      toast.success(product ? 'Product saved' : 'Product added');
      onSaved();
      onClose();
    } catch (err) {
      const invalid = formErrors.fromAnswer(err);
      if (invalid) throw invalid;
      toast.error('The product was not saved', errorMessage(err), err);
      throw err;
    }
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title={product ? `Edit ${product.name}` : 'Add a product'}
      description="Saved on your Stripe account. A new amount becomes the product's price from now on; past payments keep theirs."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={save} successLabel="Saved">
            Save
          </Button>
        </>
      }
    >
      <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Product" ref={formErrors.ref}>
        <TextField label="Name" value={form.name} onChange={set('name')} error={touched ? errors.name : null} required />
        <TextField
          label="Description"
          value={form.description}
          onChange={set('description')}
          error={touched ? errors.description : null}
        />
        <TextField
          label="Price"
          value={form.amount}
          onChange={set('amount')}
          inputMode="decimal"
          error={touched || form.amount ? amountError : null}
          required
        />
        <Field label="Currency">
          {(control) => (
            <select className="input" {...control} value={form.currency} onChange={set('currency')}>
              {[...new Set([form.currency, ...COMMON_CURRENCIES])].map((c) => (
                <option key={c} value={c}>
                  {c.toUpperCase()}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
    </Dialog>
  );
}

export default function Products({ app: _app }: { app: AppDefinition }) {
  const api = useApi();
  const admin = useIsAdmin();
  const connection = useStripeConnection();
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const connected = connection.data?.connected === true;
  const products = useQuery(connected ? `payments:products:${search}` : null, (a, signal) =>
    a.get<Product[]>('/payments/products', { signal, query: { q: search || undefined } }),
  );
  const [editing, setEditing] = useState<Product | null | 'new'>(null);
  const [archiving, setArchiving] = useState<Product | null>(null);
  const columns: Column<Product>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (p) => (
        <>
          <strong>{p.name}</strong>
          {p.description && <div className="muted">{p.description}</div>}
        </>
      ),
    },
    {
      key: 'price',
      header: 'Price',
      render: (p) =>
        p.unitAmount != null && p.currency ? formatMinor(p.unitAmount, p.currency) : <span className="muted">—</span>,
    },
    { key: 'currency', header: 'Currency', render: (p) => p.currency?.toUpperCase() ?? '—' },
    {
      key: 'active',
      header: 'Active',
      render: (p) => (
        <span className={`badge ${p.active ? 'badge-success' : 'badge-warning'}`}>{p.active ? 'Active' : 'Archived'}</span>
      ),
    },
    { key: 'id', header: 'Product ID', render: (p) => <code>{p.id}</code> },
    ...(admin
      ? [
          {
            key: 'actions',
            header: <span className="sr-only">Actions</span>,
            render: (p: Product) => (
              <div className="row-actions">
                <Button size="sm" onClick={() => setEditing(p)}>
                  Edit
                </Button>
                {p.active ? (
                  <Button size="sm" onClick={() => setArchiving(p)}>
                    Archive
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    onClick={() => api.put(`/payments/products/${p.id}`, { active: true }).then(() => products.reload())}
                    successLabel="Restored"
                  >
                    Restore
                  </Button>
                )}
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Product Catalog</h1>
        {admin && connected && (
          <Button variant="primary" onClick={() => setEditing('new')}>
            Add a product
          </Button>
        )}
      </div>
      <StripeStandInNotice />
      <QueryState query={connection}>
        {() =>
          !connected ? (
            <PaymentsState connection={connection.data!} />
          ) : (
            <Card>
              <form
                className="filters"
                role="search"
                onSubmit={(e) => {
                  e.preventDefault();
                  setSearch(q.trim());
                }}
              >
                <TextField
                  label="Search products"
                  value={q}
                  onChange={(e) => setQ(e.target.value)}
                  placeholder="Name, description or prod_…"
                />
                <div className="filters-actions">
                  <Button type="submit" variant="primary">
                    Search
                  </Button>
                </div>
              </form>
              <QueryState query={products}>
                {() => (
                  <Table
                    caption="Products"
                    columns={columns}
                    rows={products.data}
                    rowKey={(p) => p.id}
                    empty={search ? `No products match “${search}”` : 'No products yet'}
                  />
                )}
              </QueryState>
            </Card>
          )
        }
      </QueryState>
      {editing && (
        <ProductDialog
          product={editing === 'new' ? null : editing}
          defaultCurrency={connection.data?.defaultCurrency ?? 'usd'}
          onClose={() => setEditing(null)}
          onSaved={products.reload}
        />
      )}
      <ConfirmDialog
        open={!!archiving}
        title={`Archive ${archiving?.name ?? ''}?`}
        description="Agents can no longer request payments for it. Past payments stay as they are, and you can restore it."
        confirmLabel="Archive"
        onCancel={() => setArchiving(null)}
        onConfirm={async () => {
          try {
            await api.put(`/payments/products/${archiving!.id}`, { active: false });
            toast.success('Product archived');
            products.reload();
          } catch (err) {
            toast.error('The product was not archived', errorMessage(err), err);
            throw err;
          }
        }}
      />
    </div>
  );
}
