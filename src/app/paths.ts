// The route table lives in src/shared/routes.ts (the server builds search links from it too).
export * from '../shared/routes';
