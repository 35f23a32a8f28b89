import type { Result, Step } from './one-message';

// Several statements in one write to PostgreSQL: for each step a Bind, Describe and Execute of a
// named prepared statement (with its Parse the first time this connection sees it), then one
// Sync. PostgreSQL runs everything before a Sync as one implicit transaction, so scope settings
// made local by the first step bind the steps after it. node-postgres sends a Sync after every
// query; a Query subclass is its documented way ("submittable") to send something else.

type Connection = {
  stream: { cork?(): void; uncork?(): void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(q: { text: string; name: string }): void;
  bind(q: { statement: string; values: readonly unknown[]; valueMapper: unknown }): void;
  describe(q: { type: 'P'; name: string }): void;
  execute(q: { portal: string }): void;
  sync(): void;
  on(event: 'parseComplete', fn: () => void): void;
  removeListener(event: 'parseComplete', fn: () => void): void;
};

type QueryClass = new (config: {
  text: string;
  callback: (err: Error | null, res?: Result | Result[]) => void;
}) => {
  submit(connection: Connection): Error | null;
  handleReadyForQuery(connection: Connection): void;
  handleError(err: Error, connection: Connection): void;
};

type PgModule = { Query: QueryClass; utils?: unknown };

/**
 * A factory of pipelines for one loaded pg module. `nameOf` gives the prepared statement name of
 * a text (undefined when the cache of names is full: the statement then goes unnamed and is
 * parsed each time).
 */
export function pgPipelines(pg: PgModule, prepareValue: (v: unknown) => unknown, nameOf: (text: string) => string | undefined) {
  const Query = pg.Query;

  class Pipeline extends Query {
    private cleanup = () => {};

    constructor(
      private readonly steps: readonly Step[],
      callback: (err: Error | null, res?: Result | Result[]) => void,
    ) {
      super({ text: PIPELINE_TEXT, callback });
    }

    override submit(connection: Connection): Error | null {
      // names whose Parse went out in this pipeline, in order; each ParseComplete confirms one
      const parsing: string[] = [];
      const texts = new Map<string, string>();
      connection.stream.cork?.();
      try {
        for (const step of this.steps) {
          const name = nameOf(step.text) ?? '';
          if (
            !name ||
            (connection.parsedStatements[name] === undefined && connection.submittedNamedStatements[name] === undefined)
          ) {
            connection.parse({ text: step.text, name });
            if (name) {
              connection.submittedNamedStatements[name] = step.text;
              texts.set(name, step.text);
            }
            parsing.push(name);
          }
          connection.bind({ statement: name, values: step.params, valueMapper: prepareValue });
          connection.describe({ type: 'P', name: '' });
          connection.execute({ portal: '' });
        }
        connection.sync();
      } finally {
        connection.stream.uncork?.();
      }
      const onParse = () => {
        const name = parsing.shift();
        if (name) {
          connection.parsedStatements[name] = texts.get(name)!;
          delete connection.submittedNamedStatements[name];
        }
      };
      connection.on('parseComplete', onParse);
      this.cleanup = () => {
        connection.removeListener('parseComplete', onParse);
        // A Parse after a failed step was skipped by the server: parse it again next time.
        for (const name of parsing) if (name) delete connection.submittedNamedStatements[name];
      };
      return null;
    }

    override handleReadyForQuery(connection: Connection): void {
      this.cleanup();
      super.handleReadyForQuery(connection);
    }

    override handleError(err: Error, connection: Connection): void {
      this.cleanup();
      super.handleError(err, connection);
    }
  }

  return (client: { query(q: unknown): unknown }, steps: readonly Step[]): Promise<Result[]> =>
    new Promise((resolve, reject) => {
      client.query(new Pipeline(steps, (err, res) => (err ? reject(err) : resolve(Array.isArray(res) ? res : [res!]))));
    });
}

const PIPELINE_TEXT = '/* switchboard: pipeline */';
