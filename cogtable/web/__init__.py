"""``cogtable web``: a read-only live view of the table in a web page.

The page is served by a process of its own that only reads the state folder
(the status file, the journal, the camera's overlay picture): the referee
service keeps no network listener. Only what the whole table may see is
served: the status file (already public), each adapter's screen and LED frame
for a state, and the adapter's words for each move; never ``view(player)``.
"""
