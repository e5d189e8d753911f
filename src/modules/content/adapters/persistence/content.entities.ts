import { defineEntity, p } from '@mikro-orm/core';
import { BlogPost, ContentPage } from '../../domain/content';

/** Title weight A, text B: a title match ranks first (the search of guides, posts and pages). */
const SEARCH = `(setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "search_text"), 'B')) stored`;

export const ContentPageSchema = defineEntity({
  class: ContentPage,
  tableName: 'content_pages',
  indexes: [{ name: 'content_pages_search_index', expression: 'create index "content_pages_search_index" on "content_pages" using gin ("search")' }],
  properties: {
    slug: p.string().length(80).primary(),
    title: p.string().length(100),
    description: p.string().length(300),
    html: p.text(),
    updatedOn: p.string().columnType('date'),
    searchText: p.text(),
    sourceHash: p.string().length(64),
    published: p.boolean().default(true),
    updatedAt: p.datetime(),
    search: p.type('unknown').columnType('tsvector').generated(SEARCH).nullable().lazy().hidden().ignoreSchemaChanges('type', 'extra'),
  },
});

export const BlogPostSchema = defineEntity({
  class: BlogPost,
  tableName: 'blog_posts',
  indexes: [
    { name: 'blog_posts_search_index', expression: 'create index "blog_posts_search_index" on "blog_posts" using gin ("search")' },
    { name: 'blog_posts_tags_index', expression: 'create index "blog_posts_tags_index" on "blog_posts" using gin ("tags")' },
    { name: 'blog_posts_published_at_index', properties: ['published', 'publishedAt'] },
  ],
  properties: {
    slug: p.string().length(420).primary(),
    title: p.string().length(120),
    description: p.string().length(300),
    html: p.text(),
    publishedAt: p.datetime(),
    tags: p.array().columnType('text[]'),
    searchText: p.text(),
    sourceHash: p.string().length(64),
    published: p.boolean().default(true),
    updatedAt: p.datetime(),
    search: p.type('unknown').columnType('tsvector').generated(SEARCH).nullable().lazy().hidden().ignoreSchemaChanges('type', 'extra'),
  },
});
