import { Type, type Static, type TSchema } from 'typebox';

/** A positive database id, as it appears in a path or a query string. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** A page of a paged list: past any list a help centre holds, a request is a mistake (or an attack on OFFSET). */
export const PageNumber = Type.Integer({ minimum: 1, maximum: 1_000_000 });

/** A stored file's address: its id, and its name for the browser (any name serves). */
export const FileParams = Type.Object({ id: Id, name: Type.String({ maxLength: 255 }) });
/** A signed file link's query: until when it opens the file, and the server's signature of that. */
export const FileLinkQuery = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 32 })),
  signature: Type.Optional(Type.String({ maxLength: 128 })),
});

export const FieldError = Type.Object({
  field: Type.String(),
  message: Type.String(),
});
export type FieldError = Static<typeof FieldError>;

/**
 * Every error the API answers has this shape. `data.errors` is the specification's shape for per-field errors
 * (issue-open); other errors carry an empty list, so a client reads one shape everywhere.
 */
export const ErrorBody = Type.Object({
  status: Type.Integer(),
  code: Type.String(),
  message: Type.String(),
  data: Type.Object({ errors: Type.Array(FieldError) }),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const PageMeta = Type.Object({
  pageCount: Type.Integer({ minimum: 0 }),
  totalCount: Type.Integer({ minimum: 0 }),
  currentPage: Type.Integer({ minimum: 1 }),
  perPage: Type.Integer({ minimum: 1 }),
});
export type PageMeta = Static<typeof PageMeta>;

export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), _meta: PageMeta });
export interface PagedList<T> {
  items: T[];
  _meta: PageMeta;
}

export const OkBody = Type.Object({ ok: Type.Literal(true) });
