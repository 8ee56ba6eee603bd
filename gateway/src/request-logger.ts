// The request's lazy logger lives in the service kit now (the services use it too).
export { lazyRequestLogger } from '@shop/service-kit/edge';
