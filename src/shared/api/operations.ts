import { Type, type Static } from 'typebox';

export const Health = Type.Object({ status: Type.Literal('ok') });
export type Health = Static<typeof Health>;

/** Every check passed; a failed one answers 503 with the error shape, each failed check named as a field. */
export const Readiness = Type.Object({
  status: Type.Literal('ready'),
  checks: Type.Object({
    database: Type.Literal('ok'),
    migrations: Type.Literal('ok'),
    search: Type.Literal('ok'),
  }),
});
export type Readiness = Static<typeof Readiness>;

export const MetricsHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ maxLength: 1024 })),
});

/** The Prometheus text exposition format. */
export const MetricsText = Type.String();
