import DpaText from './DpaText';

export default function LegalDpaPage() {
  return (
    <article className="page page-narrow">
      <h1 className="page-title">Data Processing Addendum</h1>
      <DpaText />
    </article>
  );
}
