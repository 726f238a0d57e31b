'use strict';
// graphql's jsutils/instanceOf.js as graphql-js defines it under NODE_ENV=production, which the service
// runs with (Dockerfile, deploy/gitlab-admin.service). The development variant also looks, on every
// failed test, whether the value is the same class from a second copy of graphql; jest runs the suite
// with NODE_ENV=test. Mapped in jest.config.js for graphql's own requires of that file only.
Object.defineProperty(exports, '__esModule', { value: true });
exports.instanceOf = function instanceOf(value, constructor) {
  return value instanceof constructor;
};
