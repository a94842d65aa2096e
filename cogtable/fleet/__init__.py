"""The fleet: tables of a venue publishing to an MQTT broker (opt-in: the ``fleet`` extra).

A table that has a ``[fleet]`` section in its profile (or ``--broker``,
``--venue`` and ``--table-id``) publishes under ``cogtable/v1/<venue>/<table>/``
(:mod:`cogtable.fleet.topics`): a retained ``status`` with a last will, a
retained ``state`` numbered by the journal's ply and one ``event`` per
journaled action (:mod:`cogtable.fleet.messages`). The publisher
(:mod:`cogtable.fleet.publisher`) reads only what the table already writes for
others, its journal and its status file (:mod:`cogtable.fleet.follower`), never
the controller's engine, and shows only what the web view shows. The client
only connects out (:mod:`cogtable.fleet.connection`); ``cogtable venue``
(:mod:`cogtable.fleet.venue`) collects a venue's tables.
"""
