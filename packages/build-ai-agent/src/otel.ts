// OpenTelemetry spans for agent runs. Needs the optional peer dependency `@opentelemetry/api`.
export * from '@lousho/otel';
