process.env.TZ = 'UTC';
require('reflect-metadata');
